import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  shardFile,
  shardFiles,
  shardKindOf,
  type DetailShard,
  type SearchEntry,
  type TermShard,
} from '../../../../src/shared/search-layout';
import { SearchRanker } from '../../../../src/shared/search-ranker';
import { builtContent } from '../../../helpers/built-content';
import { SearchEngine, runQuery } from '../../../../src/client/search/engine';
import type { SearchResults } from '../../../../src/client/search/results';
import { SearchShards } from '../../../../src/client/search/shards';

/**
 * The relevance set: what a reader types, and the section (or page intro) that must be among the first
 * three results in display order. A list names equally right answers. Typos, unfinished words,
 * multi-word queries, code-like spellings and run-together words are all here.
 */
const RELEVANCE: [query: string, expected: string | string[]][] = [
  // The topics of the issue.
  ['rate limit', '/limits/#time-and-rate-limits'],
  ['okta', '/orgs/sso/okta/'],
  ['cron schedule', '/workflows/examples/cron-job/'],
  ['SSE', '/api/sse/'],
  ['S3 destination', '/destinations/s3/'],
  ['Python version', '/limits/#runtime-versions'],
  ['chunk error', '/troubleshooting/#docs-pages-that-fail-to-load-chunk-load-errors'],
  ['daily invocations', '/limits/#daily-invocations'],
  ['environment variables', '/environment-variables/'],
  ['pagination', '/api/rest/#pagination'],
  // Typos of one or two letters.
  ['webhok', '/api/rest/webhooks/'],
  ['paginaton', '/api/rest/#pagination'],
  ['pagnation', '/api/rest/#pagination'],
  ['okat', '/orgs/sso/okta/'],
  ['enviroment variables', '/environment-variables/'],
  ['webhok delivery', '/api/rest/webhooks/#how-webhook-delivery-works'],
  ['concurency', '/workflows/concurrency-and-throttling/'],
  ['pyhton', '/code/python/'],
  // Unfinished words, as the reader types.
  ['schedul', '/quickstart/run-workflow-on-a-schedule/'],
  ['python env var', ['/code/python/#environment-variables', '/environment-variables/#reading-variables-in-python']],
  // Several words.
  ['invocation quota exceeded', '/errors/#invocations-quota-exceeded'],
  ['out of memory', '/errors/#out-of-memory'],
  ['npm packages', '/code/nodejs/#importing-npm-packages'],
  ['install the cli', '/cli/install/'],
  ['global error workflow', '/workflows/error-handling/global-error-workflow/'],
  ['replay events', '/workflows/events/replay/'],
  ['cold start', '/workflows/events/cold-starts/'],
  ['api key', '/api/auth/#api-key'],
  ['http payload size', '/limits/#http-payload-size'],
  ['static ip', ['/workflows/networking/#ip-allowlisting', '/workflows/networking/#static-egress-addresses']],
  ['two factor', '/user-settings/#two-factor-authentication'],
  ['pgp key', '/privacy-and-security/pgp-key/'],
  ['delete a webhook', '/api/rest/#delete-a-webhook'],
  ['exponential backoff', '/code/nodejs/http-requests/#retries-with-exponential-backoff'],
  ['zoho crm', '/apps/zoho-crm/'],
  ['sql destination', '/destinations/sql/'],
  ['github source', '/sources/github/'],
  ['webhook signature', '/workflows/steps/triggers/#verifying-webhook-signatures'],
  ['runtime quota', '/errors/#runtime-quota-exceeded'],
  ['cancel plan', '/pricing/#how-do-i-change-or-cancel-my-plan'],
  ['event queue full', '/errors/#event-queue-full'],
  ['organization billing', '/orgs/#billing-at-the-organization-level'],
  ['memory limit', '/limits/#memory'],
  ['go modules', '/code/go/#importing-go-modules'],
  // Single words and names.
  ['airtable', '/workflows/examples/add-record-to-airtable/'],
  ['athena', '/destinations/s3/#querying-the-archive-with-athena'],
  ['idempotency', '/workflows/events/replay/#idempotency-making-replays-safe'],
  ['concurrency', '/workflows/concurrency-and-throttling/'],
  ['sso', '/orgs/sso/okta/'],
  ['pypi', '/code/python/#using-pypi-packages'],
  ['deduplication', '/sources/#deduplication'],
  ['axios', '/pipedream-axios/'],
  ['subprocessors', '/subprocessors/'],
  // Exact titles.
  ['Hello, world', '/quickstart/hello-world/'],
  ['service status', '/status/'],
  ['public workflows', '/public-workflows/'],
  ['workflow settings', '/workflows/settings/'],
  // Code-like spellings and words run together.
  ['pd deploy', '/cli/reference/#pd-deploy'],
  ['$.respond', '/code/nodejs/#responding-to-http-requests-with-respond'],
  ['pd.flow.exit', '/code/python/#ending-the-workflow-early-with-pdflowexit'],
  ['last-event-id', '/api/sse/#reconnection-with-last-event-id'],
  ['Promise.all', '/code/nodejs/async/#promiseall'],
  ['$.export', '/code/nodejs/#exporting-named-values-with-export'],
  ['nodejs', '/code/nodejs/'],
  ['timezone', '/workflows/steps/triggers/#time-zones'],
  ['ratelimit', ['/limits/#time-and-rate-limits', '/api/overview/#rate-limits']],
];

let root: string;
let release: () => Promise<void> = async () => {};
let entry: SearchEntry;
let engine: SearchEngine;

/** The built manifest/ folder holds the search data as the browser gets it: the entry and its shards. */
const searchFile = (name: string) => readFile(path.join(root, 'manifest', name), 'utf8');

beforeAll(async () => {
  const built = await builtContent();
  root = built.root;
  release = built.release;
  expect(built.messages.filter((m) => !m.includes('warning'))).toEqual([]);
  entry = JSON.parse(await searchFile('search.json')) as SearchEntry;
  engine = new SearchEngine(entry);
}, 180_000);

/** Runs a query as the worker does, loading the shards it reaches from the built files. */
async function find(query: string): Promise<SearchResults> {
  const results = await runQuery(engine, query, async (files) => {
    for (const file of files) engine.read(file, await searchFile(file));
  });
  if (!results) throw new Error(`no results for ${query}`);
  return results;
}

afterAll(() => release());

/** Result URLs in display order: groups in rank order, each group's sections in order. */
function urls(results: SearchResults): string[] {
  return results.groups.flatMap((g) => g.hits.map((h) => h.u));
}

describe('relevance', () => {
  it('has a set of at least 30 queries', async () => {
    expect(RELEVANCE.length).toBeGreaterThanOrEqual(30);
  });

  it.each(RELEVANCE)('"%s" puts %j in the first three results', async (query, expected) => {
    const wanted = Array.isArray(expected) ? expected : [expected];
    const top = urls(await find(query)).slice(0, 3);
    expect(
      top.filter((u) => wanted.includes(u)),
      `top three: ${top.join(', ')}`,
    ).not.toEqual([]);
  });

  it('finds every expected URL in the index (no stale expectations)', async () => {
    const known = new Set(await allUrls());
    for (const [, expected] of RELEVANCE) {
      for (const url of Array.isArray(expected) ? expected : [expected]) expect(known, url).toContain(url);
    }
  });
});

/** Every section URL of the index, from its detail shards. */
async function allUrls(): Promise<string[]> {
  const out: string[] = [];
  for (let n = 0; n < entry.details.length; n++) {
    const shard = JSON.parse(await searchFile(shardFile(entry, 'details', n))) as DetailShard;
    for (const page of shard.pages) {
      for (const [h, , l, a] of page.r) out.push(l === 1 ? page.u : `${page.u}#${a ?? slug(h)}`);
    }
  }
  return out;
}

function slug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^a-z0-9 _-]/g, '')
    .replace(/ /g, '-');
}

describe('ranking', () => {
  it('puts an exact page title first, before sections with the same heading', async () => {
    expect(urls(await find('Environment variables'))[0]).toBe('/environment-variables/');
    expect(urls(await find('troubleshooting'))[0]).toBe('/troubleshooting/');
    expect(urls(await find('limits'))[0]).toBe('/limits/');
  });

  it('puts exact headings before headings and text that only contain the words', async () => {
    const hits = (await find('pagination')).groups.flatMap((g) => g.hits);
    const exact = hits.filter((h) => h.h === 'Pagination').map((h) => h.u);
    expect(exact).toEqual(expect.arrayContaining(['/api/overview/#pagination', '/api/rest/#pagination']));
    const firstOther = hits.findIndex((h) => h.h !== 'Pagination' && h.u.split('#')[0] !== '/api/rest/');
    expect(firstOther).toBeGreaterThan(hits.findIndex((h) => h.u === '/api/rest/#pagination'));
  });

  it('ranks a section whose heading holds the words above one whose text does', async () => {
    const order = urls(await find('daily invocations'));
    expect(order[0]).toBe('/limits/#daily-invocations');
  });

  it('groups sections under their page, each page once, led by the intro when the title matches', async () => {
    const results = await find('okta');
    const pages = results.groups.map((g) => g.url);
    expect(new Set(pages).size).toBe(pages.length);
    for (const group of results.groups) {
      expect(group.hits.length).toBeGreaterThan(0);
      expect(group.hits.length).toBeLessThanOrEqual(4);
      for (const hit of group.hits) {
        expect(hit.u.split('#')[0]).toBe(group.url);
        expect(hit.t).toBe(group.title);
      }
    }
    expect(results.groups[0]?.url).toBe('/orgs/sso/okta/');
    expect(results.groups[0]?.hits[0]?.u).toBe('/orgs/sso/okta/');
    expect(results.total).toBe(results.groups.reduce((n, g) => n + g.hits.length, 0));
  });

  it('returns at most 20 results, with the words to highlight', async () => {
    const results = await find('workflow');
    expect(results.total).toBeLessThanOrEqual(20);
    expect(results.total).toBeGreaterThan(10);
    expect(results.terms).toContain('workflow');
  });

  it('tells which word a typo was corrected to, for highlighting', async () => {
    expect((await find('webhok')).terms).toEqual(expect.arrayContaining(['webhok', 'webhook']));
    expect((await find('okat')).terms).toContain('okta');
  });

  it('corrects typos of words found only in section text', async () => {
    expect((await find('credentails')).total).toBeGreaterThan(0);
    expect((await find('credentails')).terms).toContain('credential');
  });

  it('does not correct a word into an unrelated one', async () => {
    expect((await find('xyzzyq')).total).toBe(0);
    expect((await find('qwertyuiop')).total).toBe(0);
  });
});

describe('queries', () => {
  it('answers an empty or blank query with nothing', async () => {
    for (const query of ['', '   ', '\n\t', '!!!', '—', '...']) {
      expect(await find(query)).toEqual({ groups: [], terms: [], total: 0 });
    }
  });

  it('treats regular expression and HTML characters as text', async () => {
    for (const query of [
      '(',
      '[',
      ')',
      ']',
      '.*',
      '*',
      '+',
      '?',
      '\\',
      '^$',
      '{1,2}',
      '|',
      '<script>',
      '"><img src=x>',
    ]) {
      await expect(find(query), query).resolves.toBeDefined();
    }
    const script = await find('<script>alert(1)</script>');
    for (const term of script.terms) expect(term).toMatch(/^[\p{L}\p{N}]+$/u);
    expect(urls(await find('(okta)'))[0]).toBe('/orgs/sso/okta/');
    expect(urls(await find('[pagination]')).slice(0, 3)).toContain('/api/rest/#pagination');
  });

  it('ignores accents and case', async () => {
    const plain = urls(await find('zoe'));
    expect(plain.length).toBeGreaterThan(0);
    expect(urls(await find('Zoë'))).toEqual(plain);
    expect(urls(await find('ZOË'))).toEqual(plain);
    expect(plain[0]?.startsWith('/workflows/events/test/')).toBe(true);
    expect(urls(await find('ångström'))[0]).toBe(urls(await find('angstrom'))[0]);
    expect(urls(await find('pâginátion')).slice(0, 3)).toContain('/api/rest/#pagination');
  });

  it('survives long and many-word queries', async () => {
    await expect(find('a'.repeat(5000))).resolves.toBeDefined();
    const words = 'how do i send an email from a workflow when a webhook arrives with a large json payload and retries';
    expect((await find(words)).total).toBeGreaterThan(0);
  });

  it('stops a query the reader typed past once its files arrive, without ranking it again', async () => {
    const fresh = new SearchEngine(entry);
    const runs = vi.spyOn(fresh, 'search');
    let typedOn = false;
    const results = await runQuery(
      fresh,
      'webhook',
      async (files) => {
        for (const file of files) fresh.read(file, await searchFile(file));
        typedOn = true; // the reader typed another key while these files were on their way
      },
      () => typedOn,
    );
    expect(results).toBeUndefined();
    expect(runs).toHaveBeenCalledTimes(1);
  });

  it("ranks a query once: the runs that load its results' details only draw them", async () => {
    const fresh = new SearchEngine(entry);
    // Every word a ranking scores is looked up in its term shard; drawing a ranking looks up none.
    const lookups = vi.spyOn(SearchShards.prototype, 'headPostings');
    const atDetails: number[] = [];
    // Two words: the term files carry the first results of one word as it is typed, not of two.
    const results = await runQuery(fresh, 'event work', async (files) => {
      if (files.every((file) => shardKindOf(file) === 'details')) atDetails.push(lookups.mock.calls.length);
      for (const file of files) fresh.read(file, await searchFile(file));
    });
    const ranked = lookups.mock.calls.length;
    lookups.mockRestore();
    expect(results?.total).toBeGreaterThan(0);
    // The query had its details loaded after its ranking, and no run after that ranked it again.
    expect(atDetails.length).toBeGreaterThan(0);
    expect(atDetails[0]).toBeGreaterThan(0);
    expect(ranked).toBe(atDetails[0]);
    // What it draws is what a fresh engine with every file it reached draws.
    expect(urls(await find('event work'))).toEqual(urls(results as SearchResults));
  });

  it('draws a first letter the build ranked from its term file alone, without ranking it again', async () => {
    const fresh = new SearchEngine(entry);
    const termFiles = await Promise.all(entry.terms.map((_, n) => searchFile(shardFile(entry, 'terms', n))));
    // The first one-letter key a term file carries: the beginning of the site's most frequent word.
    const key = termFiles
      .flatMap((text) => Object.keys((JSON.parse(text) as TermShard).q ?? {}))
      .find((k) => k.length === 1);
    if (key === undefined) throw new Error('no term file carries the ranking of a first letter');
    const lookups = vi.spyOn(SearchShards.prototype, 'headPostings');
    const loaded: string[][] = [];
    const results = await runQuery(fresh, key.toUpperCase(), async (files) => {
      loaded.push(files);
      for (const file of files) fresh.read(file, await searchFile(file));
    });
    const ranked = lookups.mock.calls.length;
    lookups.mockRestore();
    // One file, in one round: not the vocabulary, nor the files of the words the letter begins.
    expect(loaded).toHaveLength(1);
    expect(loaded[0]?.map(shardKindOf)).toEqual(['terms']);
    expect(ranked).toBe(0);
    // What it draws is what the engine ranks over every file the letter reaches.
    const whole = new SearchShards(entry);
    for (const file of shardFiles(entry)) whole.read(file, await searchFile(file));
    const ranking = new SearchRanker(whole).rank(key);
    expect(results?.groups.map((g) => g.hits.length)).toEqual(ranking.selections.map((s) => s.hits.length));
    expect(results?.groups.flatMap((g) => g.hits.map((h) => h.score))).toEqual(
      ranking.selections.flatMap((s) => s.hits.map((h) => h.value)),
    );
    expect(results?.total).toBeGreaterThan(0);
  });

  it('answers every keystroke of a query', async () => {
    const query = 'environment variables';
    const prefixes = [...query].map((_, i) => query.slice(0, i + 1)).filter((prefix) => prefix.trim() !== '');
    for (const prefix of prefixes) {
      expect((await find(prefix)).total, prefix).toBeGreaterThan(0);
    }
  });
});
