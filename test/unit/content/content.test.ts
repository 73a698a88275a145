import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { canonicalRoute } from '../../../src/shared/paths';
import type { Manifest } from '../../../src/shared/types';
import {
  SPEC_SIDEBAR_GROUPS,
  sharedAvailable,
  sharedDir,
  specDir,
  specRedirects,
  specRoutes,
} from '../../helpers/spec';
import { danglingLimitPointers, limitRows } from '../../helpers/limit-pointers';
import { runtimeMismatches } from '../../helpers/runtime-features';
import { builtContent } from '../../helpers/built-content';
import { projectRoot } from '../../helpers/tree';

/** Pages the content issue calls core: at least 500 words each. */
const CORE = [
  /^\/$/,
  /^\/quickstart\//,
  /^\/code\//,
  /^\/components\//,
  /^\/api\//,
  /^\/destinations\//,
  /^\/sources\//,
  /^\/limits\/$/,
  /^\/pricing\/$/,
  /^\/errors\/$/,
  /^\/orgs\/$/,
  /^\/privacy-and-security\/$/,
];
const isCore = (route: string) =>
  CORE.some((r) => r.test(route)) || (route.startsWith('/workflows/') && !route.startsWith('/workflows/examples/'));

/**
 * One figure of SPEC §9 as a reader must find it on /limits/ or /pricing/: the value exactly as the spec writes
 * it, the words that label it there (every pattern must match the label), and the `_site.yaml` constant that
 * holds it. The values are written out here, not read from `_site.yaml`: this list is the check against the spec.
 */
interface SpecFigure {
  item: string;
  value: string;
  label: RegExp[];
  /** Labels that name a neighbouring figure instead (the free-org daily cap beside the daily cap). */
  not?: RegExp;
  constant: string;
}

const MONTHLY = /\b(monthly|month)\b/i;
const INVOCATIONS = /\binvocations?\b/i;

/** SPEC §9, row by row (the spec's compound rows are split into their figures). */
const SPEC_FIGURES: SpecFigure[] = [
  // | HTTP payload limit | 512KB |
  { item: 'HTTP payload limit', value: '512KB', label: [/\bhttp\b/i, /\bpayload\b/i], constant: 'HTTP_PAYLOAD_LIMIT' },
  // | Default memory | 256MB |
  { item: 'Default memory', value: '256MB', label: [/\bdefault\b/i, /\bmemory\b/i], constant: 'DEFAULT_MEMORY' },
  // | Absolute max memory | 10GB |
  { item: 'Absolute max memory', value: '10GB', label: [/\bmax(imum)?\b/i, /\bmemory\b/i], constant: 'MAX_MEMORY' },
  // | Email payload limit | 30MB |
  {
    item: 'Email payload limit',
    value: '30MB',
    label: [/\bemail\b/i, /\bpayload\b/i],
    constant: 'EMAIL_PAYLOAD_LIMIT',
  },
  // | Inspector | 100 events kept 30 days |
  { item: 'Inspector events', value: '100', label: [/\binspector\b/i, /\bevents\b/i], constant: 'INSPECTOR_EVENTS' },
  {
    item: 'Inspector retention days',
    value: '30',
    label: [/\binspector\b/i, /\b(retention|retained|kept|days)\b/i],
    constant: 'INSPECTOR_RETENTION_DAYS',
  },
  // | Function payload limit | 6MB |
  {
    item: 'Function payload limit',
    value: '6MB',
    label: [/\bfunction\b/i, /\bpayload\b/i],
    constant: 'FUNCTION_PAYLOAD_LIMIT',
  },
  // | Daily invocations limit | 333 (66 for free orgs) |
  {
    item: 'Daily invocations',
    value: '333',
    label: [/\bdaily\b/i, INVOCATIONS],
    not: /\borg(anization)?s?\b/i,
    constant: 'DAILY_INVOCATIONS',
  },
  {
    item: 'Free org daily invocations',
    value: '66',
    label: [/\bdaily\b/i, INVOCATIONS, /\borg(anization)?s?\b/i],
    constant: 'FREE_ORG_DAILY_INVOCATIONS',
  },
  // | Price per invocation | 0.0002 |
  {
    item: 'Price per invocation',
    value: '0.0002',
    label: [/\bprice\b/i, INVOCATIONS],
    not: MONTHLY,
    constant: 'PRICE_PER_INVOCATION',
  },
  // | Monthly invocations | free 10,000; pro 20,000; team 20,000; enterprise 100,000 |
  {
    item: 'Free monthly invocations',
    value: '10,000',
    label: [MONTHLY, INVOCATIONS, /\bfree\b/i],
    constant: 'FREE_MONTHLY_INVOCATIONS',
  },
  {
    item: 'Pro monthly invocations',
    value: '20,000',
    label: [MONTHLY, INVOCATIONS, /\bpro\b/i],
    constant: 'PRO_MONTHLY_INVOCATIONS',
  },
  {
    item: 'Team monthly invocations',
    value: '20,000',
    label: [MONTHLY, INVOCATIONS, /\bteam\b/i],
    constant: 'TEAM_MONTHLY_INVOCATIONS',
  },
  {
    item: 'Enterprise monthly invocations',
    value: '100,000',
    label: [MONTHLY, INVOCATIONS, /\benterprise\b/i],
    constant: 'ENTERPRISE_MONTHLY_INVOCATIONS',
  },
  // | Team member limit | 5 |
  { item: 'Team member limit', value: '5', label: [/\bteam\b/i, /\bmembers?\b/i], constant: 'TEAM_MEMBER_LIMIT' },
  // | Pro and team monthly price | $19 |
  {
    item: 'Pro and team monthly price',
    value: '$19',
    label: [MONTHLY, /\bprice\b/i],
    not: INVOCATIONS,
    constant: 'PAID_MONTHLY_PRICE',
  },
  // | Default workflow queue size | 100 (maximum 10,000) |
  { item: 'Default queue size', value: '100', label: [/\bdefault\b/i, /\bqueue\b/i], constant: 'DEFAULT_QUEUE_SIZE' },
  { item: 'Maximum queue size', value: '10,000', label: [/\bmax(imum)?\b/i, /\bqueue\b/i], constant: 'MAX_QUEUE_SIZE' },
  // | Node version | 14 | ; | Python version | 3.8 | ; | Go version | 1.17.1 |
  { item: 'Node version', value: '14', label: [/\bnode(\.js)?\b/i, /\bversions?\b/i], constant: 'NODE_VERSION' },
  { item: 'Python version', value: '3.8', label: [/\bpython\b/i, /\bversions?\b/i], constant: 'PYTHON_VERSION' },
  { item: 'Go version', value: '1.17.1', label: [/\bgo\b/i, /\bversions?\b/i], constant: 'GO_VERSION' },
  // | Configured props size limit | 64KB |
  { item: 'Props size limit', value: '64KB', label: [/\bprops\b/i], constant: 'PROPS_SIZE_LIMIT' },
  // | Service database size limit | 60KB |
  {
    item: 'Service database size limit',
    value: '60KB',
    label: [/\bservice\b/i, /\bdatabase\b/i],
    constant: 'SERVICE_DB_SIZE_LIMIT',
  },
  // | /tmp size limit | 512MB |
  { item: '/tmp size limit', value: '512MB', label: [/\/tmp\b|\btemporary storage\b/i], constant: 'TMP_SIZE_LIMIT' },
];

/** The value as a figure of its own: `100` is not found in `1,100`, `100,000` or `100.5`. */
function figure(value: string, flags = ''): RegExp {
  return new RegExp(`(?<![\\d.,])${value.replace(/[$.]/g, '\\$&')}(?!\\d|[.,]\\d)`, flags);
}

function plain(html: string): string {
  return html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
}

/** A table value cell with what labels it: its row's first cell and its column's header. */
interface Cell {
  page: string;
  text: string;
  label: string;
  /** Offsets of the cell's inner HTML in its page, so the self-test can change one value. */
  start: number;
  end: number;
}

function tableCells(page: string, html: string): Cell[] {
  const cells: Cell[] = [];
  for (const table of html.matchAll(/<table\b[\s\S]*?<\/table>/g)) {
    const base = table.index;
    const head = /<thead\b[\s\S]*?<\/thead>/.exec(table[0]);
    const headers = head ? [...head[0].matchAll(/<th\b[^>]*>([\s\S]*?)<\/th>/g)].map((m) => plain(m[1] ?? '')) : [];
    const body = /<tbody\b[\s\S]*?<\/tbody>/.exec(table[0]);
    if (!body) continue;
    for (const row of body[0].matchAll(/<tr\b[^>]*>([\s\S]*?)<\/tr>/g)) {
      const rowStart = base + body.index + row.index + row[0].indexOf(row[1] ?? '');
      const tds = [...(row[1] ?? '').matchAll(/<td\b[^>]*>([\s\S]*?)<\/td>/g)];
      const rowLabel = plain(tds[0]?.[1] ?? '');
      tds.slice(1).forEach((td, i) => {
        const start = rowStart + td.index + td[0].indexOf('>') + 1;
        cells.push({
          page,
          text: plain(td[1] ?? ''),
          label: `${rowLabel} | ${headers[i + 1] ?? ''}`,
          start,
          end: start + (td[1] ?? '').length,
        });
      });
    }
  }
  return cells;
}

/** Sentences of the prose: tables and code blocks left out. */
function sentences(html: string): string[] {
  return plain(html.replace(/<table\b[\s\S]*?<\/table>|<pre\b[\s\S]*?<\/pre>/g, ' ')).split(/(?<=[.!?:;])\s+/);
}

const labelled = (spec: SpecFigure, label: string) =>
  spec.label.every((re) => re.test(label)) && !(spec.not && spec.not.test(label));

/**
 * Where a figure is stated on the pages, and whether each statement is right. A table cell is a statement
 * when its row label and column header name the item and the cell holds a number: every such cell must hold
 * exactly the spec's value, so changing any of them fails. Without a table cell for the item, a sentence
 * must name it with the value within a few words of the label.
 */
function checkFigure(spec: SpecFigure, pages: Record<string, string>): string | undefined {
  const value = figure(spec.value);
  const cells = Object.entries(pages)
    .flatMap(([page, html]) => tableCells(page, html))
    .filter((cell) => /\d/.test(cell.text) && labelled(spec, cell.label));
  if (cells.length > 0) {
    const wrong = cells.filter((cell) => !value.test(cell.text));
    return wrong.length === 0
      ? undefined
      : `${spec.item}: expected ${spec.value}, ${wrong.map((c) => `/${c.page}/ "${c.label}" says "${c.text}"`).join('; ')}`;
  }
  const near = Object.values(pages).some((html) =>
    sentences(html).some((sentence) => {
      const words = sentence.split(' ');
      return words.some(
        (word, i) => value.test(word) && labelled(spec, words.slice(Math.max(0, i - 6), i + 7).join(' ')),
      );
    }),
  );
  return near ? undefined : `${spec.item}: no table row or sentence on /limits/ or /pricing/ states ${spec.value}`;
}

/** The same figure with its last digit changed: 0.0002 → 0.0003, $19 → $10, 10,000 → 10,001. */
function changed(value: string): string {
  return value.replace(/\d(?=\D*$)/, (d) => String((Number(d) + 1) % 10));
}

let manifest: Manifest;
let root: string;

/** Reader-visible words of a fragment: markup and code blocks removed. */
function words(html: string): number {
  const text = html
    .replace(/<pre[\s\S]*?<\/pre>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&[a-z#0-9]+;/g, ' ');
  return text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
}

beforeAll(async () => {
  const built = await builtContent();
  root = built.root;
  expect(built.messages).toEqual([]);
  manifest = JSON.parse(readFileSync(path.join(root, 'manifest/manifest.json'), 'utf8')) as Manifest;
}, 120_000);

/** The rendered fragments of the two pages that must state every §9 figure. */
function statementPages(): Record<string, string> {
  return Object.fromEntries(
    ['limits', 'pricing'].map((key) => [key, readFileSync(path.join(root, 'manifest/pages', `${key}.html`), 'utf8')]),
  );
}

describe('content', () => {
  it('has every route of the spec, each with a description and enough words', () => {
    const byRoute = new Map(manifest.pages.map((p) => [p.path, p]));
    const problems: string[] = [];
    for (const route of specRoutes()) {
      const page = byRoute.get(route);
      if (!page) {
        problems.push(`${route}: missing`);
        continue;
      }
      if (!page.frontmatter.description) problems.push(`${route}: no description in the frontmatter`);
      const html = readFileSync(path.join(root, 'manifest/pages', `${page.key}.html`), 'utf8');
      const minimum = isCore(route) ? 500 : 150;
      const count = words(html);
      if (count < minimum) problems.push(`${route}: ${count} words, needs ${minimum}`);
    }
    expect(problems).toEqual([]);
  });

  it('reaches every page from the sidebar', () => {
    const linked = new Set(manifest.sidebar.flatMap((g) => g.items.map((i) => i.link)));
    expect(manifest.pages.filter((p) => !linked.has(p.path)).map((p) => p.path)).toEqual([]);
    expect(manifest.sidebar.map((g) => g.text)).toEqual(
      expect.arrayContaining(['Workflows', 'Reference', 'Privacy and Security', 'Pricing and Limits', 'Organizations']),
    );
  });

  it('configures every redirect of the spec to an existing page', () => {
    for (const [from, to] of specRedirects()) {
      const target = manifest.redirects[canonicalRoute(from)];
      expect(target, from).toBeDefined();
      if (to !== '*') expect(target, from).toBe(canonicalRoute(to));
      expect(
        manifest.pages.some((p) => p.path === target),
        `${from} → ${target}`,
      ).toBe(true);
    }
  });

  it('states every figure of SPEC §9 next to its label on /limits/ or /pricing/', () => {
    const pages = statementPages();
    expect(SPEC_FIGURES.map((spec) => checkFigure(spec, pages)).filter(Boolean)).toEqual([]);
  });

  it('fails the §9 check when any labelled value on those pages is changed', () => {
    const pages = statementPages();
    const missed: string[] = [];
    for (const spec of SPEC_FIGURES) {
      const cells = Object.entries(pages)
        .flatMap(([page, html]) => tableCells(page, html))
        .filter((cell) => /\d/.test(cell.text) && labelled(spec, cell.label));
      if (cells.length === 0) {
        // Stated in a sentence: change the value everywhere on both pages.
        const mutated = Object.fromEntries(
          Object.entries(pages).map(([page, html]) => [
            page,
            html.replace(figure(spec.value, 'g'), changed(spec.value)),
          ]),
        );
        if (!checkFigure(spec, mutated)) missed.push(`${spec.item} in prose`);
      }
      for (const cell of cells) {
        const html = pages[cell.page] ?? '';
        const inner = html.slice(cell.start, cell.end).replace(figure(spec.value, 'g'), changed(spec.value));
        const mutated = { ...pages, [cell.page]: html.slice(0, cell.start) + inner + html.slice(cell.end) };
        if (!checkFigure(spec, mutated)) missed.push(`${spec.item} in /${cell.page}/ "${cell.label}"`);
      }
    }
    expect(missed).toEqual([]);
  });

  it('keeps the site configuration constants equal to SPEC §9', () => {
    const config = parse(readFileSync(path.join(projectRoot, 'content/_site.yaml'), 'utf8')) as {
      constants: Record<string, unknown>;
    };
    for (const spec of SPEC_FIGURES) expect(String(config.constants[spec.constant]), spec.constant).toBe(spec.value);
  });

  it("computes the pricing page's worked example from the plan's figures", () => {
    const { constants } = parse(readFileSync(path.join(projectRoot, 'content/_site.yaml'), 'utf8')) as {
      constants: Record<string, string>;
    };
    const num = (name: string) => Number(String(constants[name]).replace(/[$,]/g, ''));
    const included = num('PRO_MONTHLY_INVOCATIONS');
    const invocations = 2 * included;
    const extra = (invocations - included) * num('PRICE_PER_INVOCATION');
    const dollars = (n: number) => `$${n.toFixed(2)}`;
    expect({
      PRO_EXAMPLE_INVOCATIONS: constants['PRO_EXAMPLE_INVOCATIONS'],
      PRO_EXAMPLE_EXTRA_COST: constants['PRO_EXAMPLE_EXTRA_COST'],
      PRO_EXAMPLE_TOTAL: constants['PRO_EXAMPLE_TOTAL'],
    }).toEqual({
      PRO_EXAMPLE_INVOCATIONS: invocations.toLocaleString('en-US'),
      PRO_EXAMPLE_EXTRA_COST: dollars(extra),
      PRO_EXAMPLE_TOTAL: dollars(num('PAID_MONTHLY_PRICE') + extra),
    });
  });

  it('groups the sidebar exactly as the spec names its groups', () => {
    expect(manifest.sidebar.map((g) => g.text)).toEqual(SPEC_SIDEBAR_GROUPS);
  });

  it('sends readers to the limits page only for figures it states', () => {
    const pages = Object.fromEntries(
      manifest.pages.map((p) => [p.path, readFileSync(path.join(root, 'manifest/pages', `${p.key}.html`), 'utf8')]),
    );
    expect(limitRows(pages['/limits/'] ?? '').length).toBeGreaterThan(10);
    expect(danglingLimitPointers(pages, manifest.site.base)).toEqual([]);
  });

  it('finds a pointer to the limits page for a figure it lacks', () => {
    const limits = readFileSync(path.join(root, 'manifest/pages/limits.html'), 'utf8');
    const pointer = (text: string) => ({ '/limits/': limits, '/x/': `<p>${text}</p>` });
    const base = manifest.site.base;
    expect(
      danglingLimitPointers(pointer(`Stay inside the timeout on the <a href="${base}limits/">limits page</a>.`), base),
    ).toHaveLength(1);
    expect(
      danglingLimitPointers(
        pointer('Source logs are removed over time; retention figures are on the limits page.'),
        base,
      ),
    ).toHaveLength(1);
    expect(
      danglingLimitPointers(
        pointer('The inspector keeps events for a while; retention figures are on the limits page.'),
        base,
      ),
    ).toEqual([]);
    expect(
      danglingLimitPointers(pointer(`Memory is listed on the <a href="${base}limits/">limits</a> page.`), base),
    ).toEqual([]);
  });

  it('uses in platform code examples only what the platform runtimes have', () => {
    const config = parse(readFileSync(path.join(projectRoot, 'content/_site.yaml'), 'utf8')) as {
      constants: Record<string, string>;
    };
    const contentDir = path.join(projectRoot, 'content');
    const files = Object.fromEntries(
      readdirSync(contentDir, { recursive: true, encoding: 'utf8' })
        .filter((file) => file.endsWith('.md'))
        .map((file) => [file, readFileSync(path.join(contentDir, file), 'utf8')]),
    );
    const versions = {
      node: String(config.constants['NODE_VERSION']),
      python: String(config.constants['PYTHON_VERSION']),
    };
    expect(runtimeMismatches(files, versions)).toEqual([]);
  });

  it('finds a code step that calls the global fetch on Node.js 14, and not one that imports it', () => {
    const step = (body: string) =>
      `# x\n\n\`\`\`javascript\n${body}\nexport default defineComponent({\n  async run() {\n    return await fetch("https://example.com");\n  },\n});\n\`\`\`\n`;
    const versions = { node: '14', python: '3.8' };
    expect(runtimeMismatches({ 'a.md': step('') }, versions)).toEqual([
      'a.md:3: a Node.js 14 block uses the global fetch (node 18+)',
    ]);
    expect(runtimeMismatches({ 'a.md': step('import fetch from "node-fetch";') }, versions)).toEqual([]);
    expect(runtimeMismatches({ 'a.md': step('') }, { node: '18', python: '3.8' })).toEqual([]);
    const script = '```javascript\nconst res = await fetch("https://example.com");\n```\n';
    expect(runtimeMismatches({ 'b.md': script }, versions)).toEqual([]);
  });

  it.runIf(sharedAvailable)('uses the same route and redirect lists as ../shared', () => {
    for (const file of ['routes.txt', 'redirects.txt']) {
      expect(readFileSync(path.join(specDir, file), 'utf8')).toBe(readFileSync(path.join(sharedDir, file), 'utf8'));
    }
  });
});
