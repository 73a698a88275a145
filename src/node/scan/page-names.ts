import { markdownTwinPath, routeFromRelativePath } from '../../shared/paths';
import { SITE_ROOT_FILES } from '../../shared/root-files';

/**
 * Characters a page's file or folder name cannot have, because its route becomes a URL: `?` and `#` end
 * the path (`q?a.md` would be linked as `/docs/q` with a query), a browser reads `\` as `/`, `%` starts an
 * escape (`%2e%2e.md` is `..`, the folder above), and control characters are dropped from URLs. Anything
 * else (spaces, `&`, any language) is percent-encoded where the route becomes a URL.
 */
const NOT_IN_URLS = /[?#\\%\p{Cc}]/u;

/** What is wrong with a page file's name (path relative to the content folder), or undefined. */
export function pageNameProblem(relativePath: string): string | undefined {
  const found = NOT_IN_URLS.exec(relativePath);
  if (!found) return undefined;
  const char = found[0];
  const shown = /\p{Cc}/u.test(char)
    ? `a control character (U+${char.charCodeAt(0).toString(16).padStart(4, '0')})`
    : `"${char}"`;
  return `the file name has ${shown}, which cannot be part of a page's URL: rename it`;
}

/**
 * Pages whose output would need a folder where the site writes a file, each with what is there: a page
 * `version.json.md` (route `/version.json/`, written as `version.json/index.html`) where the site's own
 * `version.json` is, or `guide.md.md` where `guide/README.md`'s markdown twin `guide.md` is. Writing
 * either would fail half way through the output, so they are refused up front.
 */
export function outputClashes(relativePaths: readonly string[]): Map<string, string> {
  /** Each file the site writes that a page's folder could land on, and whose it is. */
  const files = new Map<string, string>(SITE_ROOT_FILES.map((name) => [name, `the site's own file ${name}`]));
  for (const relativePath of relativePaths) {
    const twin = markdownTwinPath(routeFromRelativePath(relativePath)).slice(1);
    files.set(twin, `the markdown twin ${twin} of ${relativePath}`);
  }
  const clashes = new Map<string, string>();
  for (const relativePath of relativePaths) {
    const route = routeFromRelativePath(relativePath);
    const segments = route.split('/').filter(Boolean);
    for (let depth = 1; depth <= segments.length; depth++) {
      const folder = segments.slice(0, depth).join('/');
      const there = files.get(folder);
      if (there === undefined) continue;
      clashes.set(
        relativePath,
        `route ${route} needs a folder ${folder}/ where the site writes ${there}: rename the page`,
      );
      break;
    }
  }
  return clashes;
}
