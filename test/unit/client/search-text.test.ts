import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { PageSource } from '../../../src/node/content/page-record';
import { buildSearchData } from '../../../src/node/site/search-index';
import {
  EXCERPT_LENGTH,
  decodePostings,
  encodePostings,
  indexTerms,
  queryTerms,
  routeWords,
  simpleSlug,
  stem,
} from '../../../src/shared/search-text';
import { Highlight, matchRanges } from '../../../src/client/search/Highlight';

describe('index terms', () => {
  it('stems plurals the same way for text and queries', () => {
    expect(['limits', 'invocations', 'variables', 'queries', 'webhooks', 'apis'].map(stem)).toEqual([
      'limit',
      'invocation',
      'variable',
      'query',
      'webhook',
      'api',
    ]);
    expect(['status', 'process', 'sse', 'gas'].map(stem)).toEqual(['status', 'process', 'sse', 'gas']);
  });

  it('yields the parts and the joined form of compound words', () => {
    expect(indexTerms('Node.js')).toEqual(['node', 'js', 'nodej']); // stemmed like a plural, as queries are
    expect(indexTerms('chunkSize')).toEqual(['chunksize', 'chunk', 'size']);
    expect(indexTerms('chunk_size')).toEqual(['chunk', 'size', 'chunksize']);
    expect(indexTerms('$auth')).toEqual(['auth']);
    expect(indexTerms('Last-Event-ID')).toEqual(['last', 'event', 'id', 'lasteventid']);
    expect(indexTerms('JSONParser')).toEqual(['jsonparser', 'json', 'parser']);
  });

  it('folds accents and drops single letters and long numbers', () => {
    expect(indexTerms('Café Ångström naïve')).toEqual(['cafe', 'angstrom', 'naive']);
    expect(indexTerms('a 42 1234567 x9')).toEqual(['42', 'x9']);
  });

  it('marks stop words in queries and keeps what was typed for highlighting', () => {
    expect(queryTerms('How to set Limits')).toEqual([
      { word: 'how', term: 'how', stop: true },
      { word: 'to', term: 'to', stop: true },
      { word: 'set', term: 'set', stop: false },
      { word: 'limits', term: 'limit', stop: false },
    ]);
    expect(queryTerms('<script>(.*)</script>')).toEqual([
      { word: 'script', term: 'script', stop: false },
      { word: 'script', term: 'script', stop: false },
    ]);
  });

  it('reads the page name and folders from a route', () => {
    expect(routeWords('/orgs/sso/okta/')).toEqual({ name: 'okta', folders: 'orgs sso' });
    expect(routeWords('/')).toEqual({ name: '', folders: '' });
    expect(routeWords('/workflows/examples/cron-job/')).toEqual({ name: 'cron job', folders: 'workflows examples' });
  });

  it('makes GitHub-style ids of plain headings', () => {
    expect(simpleSlug('Rate Limit Exceeded')).toBe('rate-limit-exceeded');
    expect(simpleSlug('Step 1: Create the source')).toBe('step-1-create-the-source');
  });
});

describe('posting lists', () => {
  it('round-trip ascending ids of any size', () => {
    const lists = [[], [0], [0, 1, 2, 3], [5, 31, 32, 33, 1023, 1024, 1025, 40000, 1_000_000], [7, 8, 300, 301]];
    for (const ids of lists) expect(decodePostings(encodePostings(ids))).toEqual(ids);
  });

  it('are JSON-safe and use no separator', () => {
    const text = encodePostings([1, 40, 5000, 5001]);
    expect(JSON.stringify(text)).toBe(`"${text}"`);
    expect(text).not.toMatch(/[\s,]/);
  });

  it('refuse a character that is not a digit', () => {
    expect(() => decodePostings('1 2')).toThrow();
  });
});

/** A page as buildSearchData reads it: title, route, description and the analysed sections. */
function page(route: string, title: string, sections: [heading: string, text: string][]): PageSource {
  return {
    route,
    title,
    description: `About ${title}.`,
    analysis: {
      sections: [
        { level: 1, heading: '', slug: '', text: `${title} introduction text.` },
        ...sections.map(([heading, text]) => ({ level: 2 as const, heading, slug: simpleSlug(heading), text })),
      ],
    },
  } as unknown as PageSource;
}

describe('buildSearchData', () => {
  it('writes one record per section, pages with their section counts, and ids only where needed', () => {
    const data = buildSearchData([
      page('/a/', 'Alpha', [
        ['First part', 'one two three'],
        ['Second part', 'four five six'],
      ]),
      page('/b/', 'Beta', [['Why? Because.', 'seven']]),
    ]);
    expect(data.v).toBe(2);
    expect(data.pages).toEqual([
      { t: 'Alpha', u: '/a/', n: 3 },
      { t: 'Beta', u: '/b/', n: 2 },
    ]);
    expect(data.records[0]).toEqual({ h: '', x: 'About Alpha.', l: 1 });
    expect(data.records[1]).toEqual({ h: 'First part', x: 'one two three', l: 2 });
    expect(data.records[4]?.a).toBeUndefined(); // "why-because" is what simpleSlug gives
    // Fuse indexes by first letter of the title and heading words; stop words ("why because") are left out.
    expect(Object.keys(data.index).sort()).toEqual(['a', 'b', 'f', 'p', 's']);
  });

  it('ships the words of long sections beyond the excerpt as index terms', () => {
    const long = `${'Introductory words repeat here. '.repeat(20)} Then the bucket holds a parquet archive.`;
    const data = buildSearchData([page('/s3/', 'Storage', [['Archive', long]])]);
    const record = data.records[1];
    expect(record?.x.length).toBeLessThanOrEqual(EXCERPT_LENGTH + 1);
    expect(record?.x.endsWith('…')).toBe(true);
    expect(data.terms.w.split(' ')).toEqual(expect.arrayContaining(['parquet', 'bucket']));
  });

  it('shortens excerpts on a large site so the file stays within its budget', () => {
    const text = 'Lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor '.repeat(6);
    const small = buildSearchData([page('/p/', 'Page', [['Section', text]])]);
    const sections = Array.from({ length: 8 }, (_, i): [string, string] => [`Section ${i}`, text]);
    const large = buildSearchData(Array.from({ length: 1500 }, (_, i) => page(`/p${i}/`, `Page ${i}`, sections)));
    const longest = (records: { x: string }[]) => Math.max(...records.map((r) => r.x.length));
    expect(longest(small.records)).toBeGreaterThan(140);
    expect(longest(large.records)).toBeLessThan(90);
    expect(longest(large.records)).toBeGreaterThanOrEqual(48);
  });
});

describe('Highlight', () => {
  it('marks query words where a word starts, ignoring case and accents', () => {
    expect(matchRanges('Rate limits', ['limit'])).toEqual([[5, 10]]);
    expect(matchRanges('unlimited', ['limit'])).toEqual([]);
    expect(matchRanges('chunkSize', ['size'])).toEqual([[5, 9]]);
    expect(matchRanges('Café au lait', ['cafe'])).toEqual([[0, 4]]);
    expect(matchRanges('Zoë and zoe', ['zoe'])).toEqual([
      [0, 3],
      [8, 11],
    ]);
  });

  it('prefers the longer of two terms at one place and never overlaps', () => {
    expect(matchRanges('webhooks and web', ['web', 'webhook'])).toEqual([
      [0, 7],
      [13, 16],
    ]);
  });

  it('renders text and queries as text, never as HTML', () => {
    const html = renderToStaticMarkup(
      createElement(Highlight, { text: '<img src=x onerror=alert(1)> image', terms: ['img'] }),
    );
    expect(html).toBe('&lt;<mark>img</mark> src=x onerror=alert(1)&gt; image');
  });
});
