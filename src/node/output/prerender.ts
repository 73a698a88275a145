import { createRequire } from 'node:module';
import path from 'node:path';
import { runInThisContext } from 'node:vm';
import { bundlePrerender } from './bundle';
import type { RenderRoute } from './write-site';

/**
 * Bundles the app's renderer (the same components the browser hydrates) and runs it in this process. The
 * bundle is evaluated as the CommonJS module it is rather than imported: the loader `npm run build` runs
 * under (tsx) transforms every imported file, and for this one (a megabyte, React included) that took
 * longer than prerendering the whole content tree.
 */
export async function loadPrerender(srcDir: string): Promise<RenderRoute> {
  const filename = path.join(path.resolve(srcDir), 'client/prerender.bundle.cjs');
  const code = await bundlePrerender(srcDir);
  const module = { exports: {} as { renderRoute?: RenderRoute } };
  const load = runInThisContext(`(function (exports, require, module) {${code}\n})`, { filename }) as (
    exports: object,
    require: NodeJS.Require,
    module: object,
  ) => void;
  load(module.exports, createRequire(filename), module);
  if (!module.exports.renderRoute) throw new Error('the prerender bundle does not export renderRoute');
  return module.exports.renderRoute;
}
