/**
 * How much a word counts in each field of a section, for the search engine's ranking
 * (src/shared/search-ranker.ts). A word of the page title counts most for the page's intro and somewhat
 * for each of its sections (a section is read in its page's context). The page's name in its URL counts a
 * little less than the title, the folders above it less again; then come the heading and the text.
 */
export const W_TITLE_INTRO = 3;
export const W_TITLE_SECTION = 1.2;
export const W_PAGE_NAME = 0.8;
export const W_FOLDER = 0.4;
export const W_HEADING = 2.2;
export const W_TEXT = 1;
/** Score factor for a section whose heading (or an intro whose title) holds every query word. */
export const WHOLE_FIELD = 1.4;
