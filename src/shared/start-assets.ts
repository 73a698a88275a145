/**
 * What a prerendered page loads once it has painted: the app's entry module, the chunks the entry imports
 * statically, and the deployment pointer, which names the data files the app reads first (the manifest,
 * the page's route shard and sidebar groups). Until the first paint the network carries only what that
 * paint needs (the document, the stylesheet and the boot script); the page reads, and its links work,
 * before the app has started.
 *
 * A document names no deployment: it stays byte for byte the same while other pages change, so a build
 * leaves it alone. The deployment comes from the pointer, which is never cached.
 *
 * The document carries the list as JSON in `<script type="application/json" id="docs-start">`, which no
 * browser fetches or runs (written and read back by src/node/output/document.ts); the boot script
 * (src/client/app/start-app.ts) reads it in the browser.
 */
export interface StartAssets {
  /** The app's entry module. */
  entry: string;
  /** Chunks the entry imports statically: fetched beside it rather than after it. */
  modules: string[];
  /** URL of the deployment pointer (`version.json`). */
  pointer: string;
  /** The site's base path, which the data files' URLs start with. */
  base: string;
  /** The page's route, whose record the app reads first; none on the not-found page. */
  route?: string;
  /** The files (their names) of the folded sidebar groups that list the page (`SidebarGroup.file`). */
  groups: string[];
}

export const START_ASSETS_ID = 'docs-start';
