import { marked, type Tokens } from 'marked';

/**
 * Checks a writer would make by hand on the content tree: pointers to the limits page for a figure it lacks,
 * code examples that need a newer runtime than the platform runs, and the sidebar's groups.
 */

/** The sidebar groups the spec names, in its order. */
export const SPEC_SIDEBAR_GROUPS = [
  'Workflows',
  'Reference',
  'Privacy and Security',
  'Pricing and Limits',
  'Organizations',
];

// ---------------------------------------------------------------------------------------------------------------
// Pointers to the limits page

/**
 * A kind of limit a sentence may send the reader to the limits page for. `mention` finds it in a sentence,
 * `row` finds the summary-table row that states it. A `qualified` topic is about one thing among several
 * (retention of inspector events, not of source logs): the row's own subject words, such as "Inspector", must
 * also appear in the paragraph that points at it.
 */
interface LimitTopic {
  name: string;
  mention: RegExp;
  row: RegExp;
  qualified?: boolean;
}

export const LIMIT_TOPICS: LimitTopic[] = [
  {
    name: 'execution timeout',
    mention: /\btime ?outs?\b|\btime limits?\b|\bexecution time\b/i,
    row: /\btime ?out|\btime limit/i,
  },
  { name: 'rate limits', mention: /\brate limit(s|ed|ing)?\b|\brequest rates?\b/i, row: /\brate\b/i },
  {
    name: 'retention',
    mention: /\bretention\b|\bretained\b|\bkept\b|\bage(s)? out\b/i,
    row: /\bretention\b/i,
    qualified: true,
  },
  { name: 'memory', mention: /\bmemory\b/i, row: /\bmemory\b/i },
  { name: 'payload size', mention: /\bpayloads?\b/i, row: /\bpayload\b/i },
  {
    name: 'temporary storage',
    mention: /\/tmp\b|\btemporary storage\b|\bdisk space\b/i,
    row: /\/tmp\b|\btemporary storage\b/i,
  },
  { name: 'invocations', mention: /\binvocations?\b/i, row: /\binvocations\b/i },
  { name: 'queue size', mention: /\bqueues?\b/i, row: /\bqueue\b/i },
  { name: 'concurrency', mention: /\bconcurren(cy|t)\b/i, row: /\bconcurren/i },
  { name: 'configured props', mention: /\bprops\b/i, row: /\bprops\b/i },
  { name: 'runtime versions', mention: /\bruntime versions?\b|\blanguage versions?\b/i, row: /\bversion\b/i },
];

/** Words of a row label that say which of several figures it is, not what it is about. */
const GENERIC = new Set(['default', 'maximum', 'max', 'size', 'daily', 'free', 'orgs', 'per', 'of', 'the', 'and']);

/** A figure the limits page states: its summary-table row label, with a number in its value cell. */
export interface LimitRow {
  label: string;
  value: string;
}

/** A block of prose (paragraph, list item, table cell) with each link written after its text as ⟦href⟧. */
function proseBlocks(html: string): string[] {
  const body = html.replace(/<pre\b[\s\S]*?<\/pre>/g, ' ').replace(/<h[1-6]\b[\s\S]*?<\/h[1-6]>/g, ' ');
  return [...body.matchAll(/<(p|li|td)\b[^>]*>([\s\S]*?)<\/\1>/g)].map((m) =>
    decode(
      (m[2] ?? '')
        .replace(/<a\b[^>]*href="([^"]*)"[^>]*>([\s\S]*?)<\/a>/g, '$2⟦$1⟧')
        .replace(/<[^>]+>/g, ' ')
        .replace(/\s+/g, ' ')
        .trim(),
    ),
  );
}

function decode(text: string): string {
  return text
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

/** Does this sentence send the reader to the limits page (a link to it, or its name)? */
function pointsAtLimits(sentence: string, base: string): boolean {
  return sentence.includes(`⟦${base}limits/`) || /\blimits page\b/i.test(sentence);
}

/** The rows of the limits page's summary table whose value holds a figure. */
export function limitRows(limitsHtml: string): LimitRow[] {
  const table = /<table\b[\s\S]*?<\/table>/.exec(limitsHtml)?.[0] ?? '';
  return [...table.matchAll(/<tr\b[^>]*>([\s\S]*?)<\/tr>/g)]
    .map((row) => [...(row[1] ?? '').matchAll(/<td\b[^>]*>([\s\S]*?)<\/td>/g)].map((td) => strip(td[1] ?? '')))
    .filter((cells) => cells.length >= 2 && /\d/.test(cells[1] ?? ''))
    .map(([label, value]) => ({ label: label ?? '', value: value ?? '' }));
}

function strip(html: string): string {
  return decode(
    html
      .replace(/<[^>]+>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim(),
  );
}

function covers(topic: LimitTopic, row: LimitRow, paragraph: string): boolean {
  if (!topic.row.test(row.label)) return false;
  if (!topic.qualified) return true;
  const subject = row.label
    .toLowerCase()
    .split(/[^a-z0-9./]+/)
    .filter((word) => word && !GENERIC.has(word) && !topic.row.test(word));
  return subject.every((word) => new RegExp(`\\b${word.replace(/[.]/g, '\\.')}`, 'i').test(paragraph));
}

/**
 * Every sentence, outside the limits page itself, that sends the reader to the limits page for a kind of
 * limit that page states no figure for. `pages` maps a route to its rendered fragment.
 */
export function danglingLimitPointers(pages: Record<string, string>, base: string): string[] {
  const rows = limitRows(pages['/limits/'] ?? '');
  const problems: string[] = [];
  for (const [route, html] of Object.entries(pages)) {
    if (route === '/limits/') continue;
    for (const paragraph of proseBlocks(html)) {
      for (const sentence of paragraph.split(/(?<=[.!?])\s+(?=[A-Z[`(])/)) {
        if (!pointsAtLimits(sentence, base)) continue;
        const text = sentence.replace(/⟦[^⟧]*⟧/g, '');
        for (const topic of LIMIT_TOPICS) {
          if (!topic.mention.test(text)) continue;
          if (rows.some((row) => covers(topic, row, paragraph.replace(/⟦[^⟧]*⟧/g, '')))) continue;
          problems.push(
            `${route}: "${text}" sends the reader to the limits page for ${topic.name}, which it lists no figure for`,
          );
        }
      }
    }
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------------------------
// Code examples and the runtime they run on

export type Runtime = 'node' | 'python';

/**
 * Where a fenced block runs. A Node.js block runs on the platform when it is a step (`defineComponent`) or a
 * component (`export default {` with a `run` method or hooks); a Python block when it defines `handler(pd)`.
 * Anything else (a script for the reader's own machine, a shell session) runs wherever the reader runs it.
 */
export function platformRuntime(lang: string, code: string): Runtime | undefined {
  const language = lang.trim().split(/\s+/)[0]?.toLowerCase() ?? '';
  if (['js', 'javascript', 'mjs', 'ts', 'typescript'].includes(language)) {
    if (/\bdefineComponent\s*\(/.test(code)) return 'node';
    if (/export default\s*\{/.test(code) && /\b(async\s+)?run\s*\(|\bhooks\s*:/.test(code)) return 'node';
    return undefined;
  }
  if (['py', 'python'].includes(language) && /\bdef handler\s*\(\s*pd\b/.test(code)) return 'python';
  return undefined;
}

/** A language feature and the first release of the runtime that has it. */
interface RuntimeFeature {
  runtime: Runtime;
  name: string;
  since: string;
  uses: RegExp;
  /** The block brings its own implementation (an import), so the runtime does not need one. */
  unless?: RegExp;
}

export const RUNTIME_FEATURES: RuntimeFeature[] = [
  {
    runtime: 'node',
    name: 'the global fetch',
    since: '18',
    uses: /(?<![.\w$])fetch\s*\(/,
    unless: /\bimport\s+fetch\b|\bimport\s*\{[^}]*\bfetch\b|\b(const|let|var)\s+fetch\s*=/,
  },
  { runtime: 'node', name: 'the global structuredClone', since: '17', uses: /(?<![.\w$])structuredClone\s*\(/ },
  { runtime: 'node', name: 'Object.hasOwn', since: '16.9', uses: /\bObject\.hasOwn\s*\(/ },
  { runtime: 'node', name: 'Array.prototype.at', since: '16.6', uses: /\.at\(\s*-\s*\d/ },
  { runtime: 'node', name: 'String.prototype.replaceAll', since: '15', uses: /\.replaceAll\s*\(/ },
  { runtime: 'node', name: 'Promise.any', since: '15', uses: /\bPromise\.any\s*\(/ },
  { runtime: 'node', name: 'logical assignment (??=, ||=, &&=)', since: '15', uses: /\?\?=|\|\|=|&&=/ },
  { runtime: 'python', name: 'the match statement', since: '3.10', uses: /^\s*match\s+[^=\n]+:\s*$/m },
  { runtime: 'python', name: 'str.removeprefix / removesuffix', since: '3.9', uses: /\.remove(prefix|suffix)\s*\(/ },
  { runtime: 'python', name: 'the zoneinfo module', since: '3.9', uses: /\bzoneinfo\b/ },
  { runtime: 'python', name: 'built-in generic annotations', since: '3.9', uses: /[:>]\s*(list|dict|tuple|set)\[/ },
];

/** `a` is older than `b`, comparing dotted version numbers part by part. */
function older(a: string, b: string): boolean {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i] ?? 0;
    const y = pb[i] ?? 0;
    if (x !== y) return x < y;
  }
  return false;
}

/** Fenced code blocks of a markdown page, with the line each starts on. */
function codeBlocks(markdown: string): { lang: string; text: string; line: number }[] {
  const blocks: { lang: string; text: string; line: number }[] = [];
  let cursor = 0;
  marked.walkTokens(marked.lexer(markdown), (token) => {
    if (token.type !== 'code') return;
    const code = token as Tokens.Code;
    const at = markdown.indexOf(code.raw, cursor);
    cursor = at < 0 ? cursor : at + code.raw.length;
    const line = at < 0 ? 0 : markdown.slice(0, at).split('\n').length;
    blocks.push({ lang: code.lang ?? '', text: code.text, line });
  });
  return blocks;
}

/**
 * Every platform code block that uses a feature its runtime's version lacks. `files` maps a content file to its
 * markdown; `versions` holds the platform's runtime versions (the site's constants).
 */
export function runtimeMismatches(files: Record<string, string>, versions: Record<Runtime, string>): string[] {
  const problems: string[] = [];
  for (const [file, markdown] of Object.entries(files)) {
    for (const block of codeBlocks(markdown)) {
      const runtime = platformRuntime(block.lang, block.text);
      if (!runtime) continue;
      const version = versions[runtime];
      for (const feature of RUNTIME_FEATURES) {
        if (feature.runtime !== runtime || !older(version, feature.since)) continue;
        if (!feature.uses.test(block.text) || feature.unless?.test(block.text)) continue;
        problems.push(
          `${file}:${block.line}: a ${runtime === 'node' ? 'Node.js' : 'Python'} ${version} block uses ${feature.name} (${runtime} ${feature.since}+)`,
        );
      }
    }
  }
  return problems;
}
