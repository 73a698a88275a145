import { builtinModules } from 'node:module';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { contentHash } from '../content-hash';
import { coloursOf, type PageRecord } from '../analyze/page-record';
import { highlightCss } from '../highlight/css';
import { mathClassesCss } from '../analyze/markdown/math-styles';

export interface ClientAssets {
  /** Files to write into `dist/assets/js`, by file name. */
  files: Map<string, Uint8Array>;
  /** File names (under assets/js) of the main entry, the theme boot script and the search worker. */
  entry: string;
  theme: string;
  worker: string;
  /** Chunks the app's start evaluates (see `startChunks`), for modulepreload. */
  preload: string[];
}

const NODE_BUILTINS = [...builtinModules, ...builtinModules.map((m) => `node:${m}`), 'node:*'];

/**
 * Fails the bundle when browser code reaches Node code or a Node built-in (the boundary is real). Checked on
 * the metafile after bundling rather than by a resolve plugin: a plugin makes esbuild wait on this process
 * for every import, and during a build this process is busy rendering pages, which made the app's bundle
 * take several times as long.
 */
function checkBrowserBoundary(srcDir: string, metafiles: (esbuild.Metafile | undefined)[]): void {
  // esbuild names files relative to the working directory it ran in: the project's folder.
  const projectDir = path.resolve(srcDir, '..');
  const nodeDir = path.join(path.resolve(srcDir), 'node') + path.sep;
  const problems: string[] = [];
  const inputs = metafiles.flatMap((metafile) => Object.entries(metafile?.inputs ?? {}));
  for (const [importer, input] of inputs) {
    for (const imported of input.imports) {
      const shown = imported.original ?? imported.path;
      if (imported.external && NODE_BUILTINS.includes(imported.path)) {
        problems.push(`browser code imports the Node built-in "${shown}" (from ${importer})`);
      } else if (!imported.external && path.resolve(projectDir, imported.path).startsWith(nodeDir)) {
        problems.push(`browser code imports build-only code "${shown}" (from ${importer})`);
      }
    }
  }
  if (problems.length > 0) throw new Error(problems.join('\n'));
}

const common: esbuild.BuildOptions = {
  bundle: true,
  minify: true,
  write: false,
  platform: 'browser',
  target: ['chrome110', 'firefox115', 'safari16'],
  define: { 'process.env.NODE_ENV': process.env['DOCS_DEBUG_BUNDLE'] ? '"development"' : '"production"' },
  legalComments: 'none',
  logLevel: 'silent',
  // Left in place so that checkBrowserBoundary can name them, instead of esbuild's less direct error.
  external: NODE_BUILTINS,
  jsx: 'automatic',
};

/**
 * V8's explicit compile hint (other engines read it as a comment): the file's functions are compiled
 * with the file, as it streams in off the main thread, rather than each on its first call. The app's
 * start calls most of what its chunks hold, React's DOM renderer above all, a CommonJS module whose whole
 * body is one function: compiled lazily, that is most of its evaluation task.
 */
export const COMPILE_WHOLE_HINT = '//# allFunctionsCalledOnLoad';

/** Bundles the reader app: code-split ESM, content-hashed names, plus the classic theme boot script. */
export async function bundleClient(srcDir: string): Promise<ClientAssets> {
  // The project's folder, not the process's: esbuild's output names depend on the paths it is given.
  const where = { ...common, absWorkingDir: path.resolve(srcDir, '..') };
  const [app, worker, theme] = await Promise.all([
    esbuild.build({
      ...where,
      entryPoints: { entry: path.join(srcDir, 'client/entry.tsx') },
      outdir: '/assets/js',
      format: 'esm',
      splitting: true,
      entryNames: '[name].[hash]',
      chunkNames: 'chunk.[hash]',
      metafile: true,
      banner: { js: COMPILE_WHOLE_HINT },
    }),
    // One file, sharing no chunk with the app: the first search waits for the worker's script, and a
    // chunk it imported would be one more request in between.
    esbuild.build({
      ...where,
      entryPoints: { 'search-worker': path.join(srcDir, 'client/search/worker.ts') },
      outdir: '/assets/js',
      format: 'esm',
      entryNames: '[name].[hash]',
      metafile: true,
    }),
    esbuild.build({
      ...where,
      entryPoints: { theme: path.join(srcDir, 'client/app/theme-boot.ts') },
      outdir: '/assets/js',
      format: 'iife',
      entryNames: '[name].[hash]',
      metafile: true,
    }),
  ]);
  checkBrowserBoundary(srcDir, [app.metafile, worker.metafile, theme.metafile]);
  const files = new Map<string, Uint8Array>();
  for (const file of [...(app.outputFiles ?? []), ...(worker.outputFiles ?? []), ...(theme.outputFiles ?? [])])
    files.set(path.basename(file.path), file.contents);
  const outputs = app.metafile.outputs;
  const find = (prefix: string) => {
    const name = [...files.keys()].find((f) => f.startsWith(prefix) && f.endsWith('.js'));
    if (!name) throw new Error(`bundle is missing its ${prefix} output`);
    return name;
  };
  const entry = find('entry.');
  return {
    files,
    entry,
    theme: find('theme.'),
    worker: find('search-worker.'),
    preload: startChunks(outputs, entry, STEP_MODULES),
  };
}

/**
 * Modules the app's start imports in steps of their own (src/client/entry.tsx, app/takeover.tsx), so that no
 * one task evaluates the whole app: named by the source file or package module esbuild records as their
 * chunk's entry point.
 */
const STEP_MODULES = ['src/client/app/takeover.tsx', 'src/client/app/dom-renderer.ts'];

/**
 * Every chunk the app's start evaluates: the entry's static imports, then each step module's chunk and its
 * static imports. They are all preloaded at once, so the steps wait for no request of their own.
 */
export function startChunks(outputs: esbuild.Metafile['outputs'], entry: string, stepModules: string[]): string[] {
  const found = staticImports(outputs, entry);
  for (const module of stepModules) {
    // A source tree without the step (a test's small app) has nothing more to preload.
    const output = Object.entries(outputs).find(([, meta]) => meta.entryPoint?.endsWith(module));
    if (!output) continue;
    const chunk = path.basename(output[0]);
    for (const name of [chunk, ...staticImports(outputs, chunk)]) {
      if (name !== entry && !found.includes(name)) found.push(name);
    }
  }
  return found;
}

/**
 * Every chunk the entry needs before it runs: its static imports and theirs, in the order found. The
 * metafile names outputs relative to the working directory (`../../assets/js/entry.X.js` for an outdir of
 * `/assets/js`), so outputs are matched by file name, which is unique in the one output folder.
 */
export function staticImports(outputs: esbuild.Metafile['outputs'], entry: string): string[] {
  const byName = new Map(Object.entries(outputs).map(([key, meta]) => [path.basename(key), meta]));
  if (!byName.has(entry)) throw new Error(`bundle metafile has no output named ${entry}`);
  const found: string[] = [];
  const visit = (name: string) => {
    for (const imported of byName.get(name)?.imports ?? []) {
      const chunk = path.basename(imported.path);
      if (imported.kind !== 'import-statement' || found.includes(chunk) || chunk === entry) continue;
      found.push(chunk);
      visit(chunk);
    }
  };
  visit(entry);
  return found;
}

/** The app's stylesheet, bundled and minified: the part of the site's CSS that does not depend on content. */
export async function bundleAppCss(srcDir: string): Promise<string> {
  const result = await esbuild.build({
    entryPoints: [path.join(srcDir, 'client/styles/app.css')],
    bundle: true,
    minify: true,
    write: false,
    logLevel: 'silent',
    outfile: '/app.css',
  });
  return result.outputFiles[0]?.text ?? '';
}

/**
 * The site's stylesheet: the app's CSS (see `bundleAppCss`) plus the code colours its fragments use and
 * the classes their formulas are drawn with.
 */
export function siteCss(
  appCss: string,
  pages: readonly Pick<PageRecord, 'codeColours' | 'mathClasses'>[],
): ReturnType<typeof siteStylesheet> {
  const math = mathClassesCss(pages.flatMap((page) => page.mathClasses));
  return siteStylesheet(appCss, `${highlightCss(coloursOf(pages))}\n${math}`);
}

/** The site's stylesheet: the app's CSS and the code colours the fragments use, minified, content-hashed. */
export async function siteStylesheet(appCss: string, highlightCss: string): Promise<{ name: string; css: Uint8Array }> {
  const highlight = await esbuild.transform(highlightCss, { loader: 'css', minify: true });
  const css = new TextEncoder().encode(appCss + highlight.code);
  return { name: `app.${contentHash(css)}.css`, css };
}

/**
 * Writes the app's renderer (src/client/prerender.tsx) to `outFile` as a CommonJS module for Node, with
 * everything it imports, React's production build included: a React left to Node would pick its
 * development build, at twice the cost per page, whenever NODE_ENV is not set.
 */
export async function bundlePrerender(srcDir: string, outFile: string): Promise<void> {
  await esbuild.build({
    entryPoints: [path.join(srcDir, 'client/prerender.tsx')],
    outfile: outFile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'silent',
  });
}
