/**
 * Bundle sizes of a built dist/, read statically: what a first visit of one route downloads. The entry
 * HTML names the scripts, module preloads and stylesheets; each script's static imports are followed.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { KB, type Figure } from './report';
import { readStartAssets } from '../src/node/output/document';

export interface FileSize {
  file: string;
  raw: number;
  gzip: number;
}

export interface InitialAssets {
  js: FileSize[];
  css: FileSize[];
}

const attr = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];

/** Static imports of an ES module chunk (`import{…}from"./chunk.X.js"`, `import"./chunk.X.js"`), not `import()`. */
export function staticImports(code: string): string[] {
  const found = new Set<string>();
  for (const match of code.matchAll(/(?:\bfrom\s*|\bimport\s*)(["'])(\.\/[^"']+\.js)\1/g)) {
    if (match[2]) found.add(match[2]);
  }
  return [...found];
}

async function sizeOf(file: string, root: string): Promise<FileSize> {
  const bytes = await readFile(file);
  return { file: path.relative(root, file), raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
}

/** The JS and CSS a first visit of `route` (e.g. "limits/") loads before any interaction, the app's included. */
export async function initialAssets(distDir: string, route: string, base = '/docs/'): Promise<InitialAssets> {
  const html = await readFile(path.join(distDir, route, 'index.html'), 'utf8');
  const toFile = (url: string) => path.join(distDir, url.startsWith(base) ? url.slice(base.length) : url);
  const scripts: string[] = [];
  const styles: string[] = [];
  for (const [tag] of html.matchAll(/<(?:script|link)\b[^>]*>/g)) {
    const rel = attr(tag, 'rel');
    if (tag.startsWith('<script')) {
      const src = attr(tag, 'src');
      if (src) scripts.push(toFile(src));
    } else if (rel === 'modulepreload') {
      const href = attr(tag, 'href');
      if (href) scripts.push(toFile(href));
    } else if (rel === 'stylesheet') {
      const href = attr(tag, 'href');
      if (href) styles.push(toFile(href));
    }
  }
  // The app itself, which the boot script starts once the page has painted: the entry and the chunks its
  // start imports, statically and in steps (the boot script preloads them all).
  const start = readStartAssets(html);
  if (start) scripts.push(...[start.entry, ...start.modules].map(toFile));
  const seen = new Set<string>();
  const queue = [...scripts];
  while (queue.length > 0) {
    const file = queue.shift();
    if (!file || seen.has(file)) continue;
    seen.add(file);
    const code = await readFile(file, 'utf8');
    for (const spec of staticImports(code)) queue.push(path.resolve(path.dirname(file), spec));
  }
  return {
    js: await Promise.all([...seen].map((f) => sizeOf(f, distDir))),
    css: await Promise.all([...new Set(styles)].map((f) => sizeOf(f, distDir))),
  };
}

const total = (files: FileSize[], key: 'raw' | 'gzip') => files.reduce((n, f) => n + f[key], 0);

export interface SizeTargets {
  jsGzipBytes: number;
  cssGzipBytes: number;
}

export function sizeFigures(assets: InitialAssets, route: string, targets: SizeTargets): Figure[] {
  const section = 'Bundle';
  const list = (files: FileSize[]) => `${files.length} file${files.length === 1 ? '' : 's'}`;
  return [
    {
      section,
      name: `initial JS for ${route} (raw)`,
      value: total(assets.js, 'raw'),
      unit: 'bytes',
      note: `${list(assets.js)}: theme script, entry and every chunk the app's start evaluates`,
    },
    {
      section,
      name: `initial JS for ${route} (gzip -9)`,
      value: total(assets.js, 'gzip'),
      unit: 'bytes',
      target: { max: targets.jsGzipBytes, inclusive: true },
      note: 'each file gzipped on its own',
    },
    { section, name: 'CSS (raw)', value: total(assets.css, 'raw'), unit: 'bytes', note: list(assets.css) },
    {
      section,
      name: 'CSS (gzip -9)',
      value: total(assets.css, 'gzip'),
      unit: 'bytes',
      target: { max: targets.cssGzipBytes },
    },
  ];
}

export const SIZE_TARGETS: SizeTargets = { jsGzipBytes: 90 * KB, cssGzipBytes: 20 * KB };
