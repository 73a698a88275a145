/**
 * `npm run compile`: the build's own TypeScript as plain JavaScript (src/node/compiled.ts), and the app's
 * bundles (src/node/output/app-bundles.ts), each made again only when a source changed since.
 * `npm run build`, `npm run dev` and `npm start` run it first.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { compile, compiledFile, projectRootOf } from '../src/node/compiled';
import { makeAppBundles } from '../src/node/output/app-bundles';

const root = projectRootOf(import.meta.url);
try {
  if (await compile(root)) {
    console.log('compiled the build (node_modules/.cache/docs-node)');
    // This process runs the compiler as it was before: the app's bundles are named by the sources of
    // today (bundle.ts among them), so the code of today makes them. Its compile finds nothing to do.
    await import(`${pathToFileURL(compiledFile(root, 'compile')).href}?fresh=${Date.now()}`);
  } else if (await makeAppBundles(path.join(root, 'src'))) {
    console.log('bundled the app (node_modules/.cache/docs-app)');
  }
} catch (error) {
  // esbuild's message names the file, line and column of each error.
  console.error(`compile: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
