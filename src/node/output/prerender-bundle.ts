import { createRequire } from 'node:module';
import type { RenderRoute } from './render-document';

/**
 * The renderer in the prerender bundle (`prerender.cjs`), loaded into this thread: the build's own thread
 * for a small site, each prerender thread for a large one (prerender-threads.ts).
 */
export function loadRenderer(file: string): RenderRoute {
  const { renderRoute } = createRequire(file)(file) as { renderRoute?: RenderRoute };
  if (!renderRoute) throw new Error('the prerender bundle does not export renderRoute');
  return renderRoute;
}
