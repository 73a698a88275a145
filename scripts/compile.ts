/**
 * `npm run compile`: the build's own TypeScript as plain JavaScript (src/node/compiled.ts), when a source
 * changed since it was last compiled. `npm run build`, `npm run dev` and `npm start` run it first.
 */
import { compile, projectRootOf } from '../src/node/compiled';

try {
  if (await compile(projectRootOf(import.meta.url))) console.log('compiled the build (node_modules/.cache/docs-node)');
} catch (error) {
  // esbuild's message names the file, line and column of each error.
  console.error(`compile: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
