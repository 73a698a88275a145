import path from 'node:path';
import * as esbuild from 'esbuild';

let nodeBundles = 0;

/**
 * A new file name for a bundle the build runs in Node, under the project's `node_modules/.cache/`: a
 * bundle that leaves its packages to Node finds them from its own folder, whatever cache folder the build
 * was given. One file per call, so builds running side by side never load each other's.
 */
export function nodeBundleFile(srcDir: string, name: string): string {
  return path.join(
    path.dirname(path.resolve(srcDir)),
    'node_modules/.cache/docs-bundles',
    `${name}.${process.pid}.${++nodeBundles}.mjs`,
  );
}

/** The build's highlight thread (worker.ts beside this file), its packages left to Node. */
export async function bundleHighlightWorker(srcDir: string, outFile: string): Promise<void> {
  await esbuild.build({
    entryPoints: [path.join(srcDir, 'node/highlight/worker.ts')],
    outfile: outFile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // shiki finds its grammars and its WebAssembly beside its own files.
    packages: 'external',
    logLevel: 'silent',
  });
}
