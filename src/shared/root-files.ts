import { POINTER_FILE } from './site-data';

/** Files of the site at the top of `dist/`, beside the pages' folders. */
export const SITEMAP_FILE = 'sitemap.xml';
export const FAVICON_FILE = 'favicon.svg';
export const NOT_FOUND_FILE = '404.html';
/** The llms.txt convention's index of the pages, and every page's markdown in one file (output/llms.ts). */
export const LLMS_INDEX_FILE = 'llms.txt';
export const LLMS_FULL_FILE = 'llms-full.txt';

/**
 * The files the site writes at the top of `dist/` whose names a page file could claim (`_redirects` and
 * the like cannot: such names are never pages). A page `version.json.md` would need a folder
 * `version.json/` where the site's own file is.
 */
export const SITE_ROOT_FILES: readonly string[] = [
  FAVICON_FILE,
  NOT_FOUND_FILE,
  LLMS_INDEX_FILE,
  LLMS_FULL_FILE,
  SITEMAP_FILE,
  POINTER_FILE,
];
