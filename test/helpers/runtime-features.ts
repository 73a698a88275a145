import { marked, type Tokens } from 'marked';

/**
 * Code examples that run on the platform and use a language feature newer than the platform's runtime
 * (the global fetch in a Node.js 14 step).
 */

export type Runtime = 'node' | 'python';

/**
 * Where a fenced block runs. A Node.js block runs on the platform when it is a step (`defineComponent`) or a
 * component (`export default {` with a `run` method or hooks); a Python block when it defines `handler(pd)`.
 * Anything else (a script for the reader's own machine, a shell session) runs wherever the reader runs it.
 */
function platformRuntime(lang: string, code: string): Runtime | undefined {
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

const RUNTIME_FEATURES: RuntimeFeature[] = [
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
