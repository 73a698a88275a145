/**
 * "Did you mean" suggestions for a wrong route, anchor or constant name: a known name a few edits away
 * (case ignored); the fewest edits wins, then the first in the list. Edits are counted as the search
 * engine counts them (src/shared/edit-distance.ts), so a swap of neighbouring letters is one.
 *
 * Anchors and constants come in short lists (a page's headings, the site's constants), so they are
 * scanned, and a section renamed a little (`git-repo-…` → `git-repository-…`) is still found: a third of
 * the name's length may differ. Routes are many, and a site with many broken links asks once per link;
 * a link to a page removed long ago is near no route at all, and its answer must cost no more than a
 * typo's, whatever the size of the site. A route suggestion is for a typo in one place, a small fixed
 * number of edits, so a site's routes are looked up by symmetric deletion (close-names.ts).
 */

import path from 'node:path';
import { CloseNames, INDEX_FROM, nearestOf, type Match, type SuggestionWork } from './close-names';
import { resolveLink } from './links';

/** The most edits a route suggestion is away from a route in the same folder: in its last segment. */
export const SEGMENT_EDITS = 2;
/** The most edits a route suggestion is away from a route elsewhere on the site: a folder's name misspelt. */
const ROUTE_EDITS = 1;

/** ` (did you mean "X"?)` for the closest known name, or nothing when none is close. */
export function closest(name: string, known: readonly string[]): string {
  return didYouMean(nearestName(name, known));
}

/**
 * ` (did you mean "X"?)` for a route nothing is at: see `RouteSuggestions.nearest`. `link` is the link as
 * the writer wrote it and the file it is in, when there is one.
 */
export function closestRoute(route: string, routes: readonly string[], link?: WrittenLink): string {
  return didYouMean(nearestRoute(route, routes, link));
}

/** The most edits a suggestion for an anchor or a constant is away from it. */
export function suggestionLimit(name: string): number {
  return Math.max(3, Math.floor(name.length / 3));
}

/** The known anchor or constant closest to `name`, or undefined when none is within `suggestionLimit(name)` edits. */
export function nearestName(name: string, known: readonly string[]): string | undefined {
  const lower = known.map((candidate) => candidate.toLowerCase());
  const found = nearestOf(name.toLowerCase(), lower, suggestionLimit(name), lower.keys(), { examined: 0 });
  return found && known[found.id];
}

/**
 * The last long list of routes (a site's) and its index, kept for the next broken link, and for the next
 * time the site is put together with the same routes (`npm run dev` after a save): its answers hold.
 */
let kept: { routes: readonly string[]; index: RouteSuggestions } | undefined;

const sameRoutes = (a: readonly string[], b: readonly string[]) =>
  a === b || (a.length === b.length && a.every((route, i) => route === b[i]));

/** The route to suggest for `route`: see `RouteSuggestions.nearest`. */
export function nearestRoute(route: string, routes: readonly string[], link?: WrittenLink): string | undefined {
  if (kept && sameRoutes(kept.routes, routes)) {
    // The next broken link of the same site passes the same list: known at once, not route by route.
    kept.routes = routes;
    return kept.index.nearest(route, link);
  }
  const index = new RouteSuggestions(routes);
  if (routes.length >= INDEX_FROM) kept = { routes, index };
  return index.nearest(route, link);
}

function didYouMean(name: string | undefined): string {
  return name === undefined ? '' : ` (did you mean "${name}"?)`;
}

/** A link as written (`written`) in a page file (`file`, relative to the content folder). */
export interface WrittenLink {
  written: string;
  file: string;
}

/**
 * A site's routes and the one to suggest for a route nothing is at. A typo is in one place: a route in
 * the same folder whose last segment is `SEGMENT_EDITS` edits away at most, or any route one edit
 * away (a folder's name misspelt, a `/` left out). A relative link that leads to a route when read
 * from the page file's folder (as an older site read `../x.html`), or else from the site's root, was
 * meant from there: that route is the suggestion.
 */
export class RouteSuggestions {
  readonly work: SuggestionWork = { examined: 0 };
  private readonly lower: string[];
  /** The first route of each lower-case spelling. */
  private readonly exact = new Map<string, number>();
  private whole: CloseNames | undefined;
  /** Route ids by folder (lower case), and their last segments; each folder's index made on first use. */
  private readonly folders = new Map<string, { ids: number[]; lasts: string[]; names?: CloseNames }>();
  private readonly answers = new Map<string, string | undefined>();

  constructor(private readonly routes: readonly string[]) {
    this.lower = routes.map((route) => route.toLowerCase());
    this.lower.forEach((route, id) => {
      if (!this.exact.has(route)) this.exact.set(route, id);
      const { folder, last } = splitRoute(route);
      const entry = this.folders.get(folder);
      if (entry) {
        entry.ids.push(id);
        entry.lasts.push(last);
      } else this.folders.set(folder, { ids: [id], lasts: [last] });
    });
  }

  nearest(route: string, link?: WrittenLink): string | undefined {
    if (!link) return this.nearestTo(route);
    // The same link in the same file has the same answer: a site put together again asks for each again.
    const asked = `${route}\0${link.written}\0${link.file}`;
    if (this.answers.has(asked)) return this.answers.get(asked);
    let answer: string | undefined;
    for (const meant of readElsewhere(link)) {
      const id = meant === route ? undefined : this.exact.get(meant.toLowerCase());
      if (id !== undefined) answer ??= this.routes[id];
    }
    answer ??= this.nearestTo(route);
    this.answers.set(asked, answer);
    return answer;
  }

  /** The route nearest to `route`, from the routes alone. */
  private nearestTo(route: string): string | undefined {
    const query = route.toLowerCase();
    if (this.answers.has(query)) return this.answers.get(query);
    let best: Match | undefined = undefined;
    const exact = this.exact.get(query);
    if (exact !== undefined) best = { id: exact, distance: 0 };
    else {
      const { folder, last } = splitRoute(query);
      const siblings = this.folders.get(folder);
      if (siblings) {
        siblings.names ??= new CloseNames(siblings.lasts, SEGMENT_EDITS, this.work);
        const found = siblings.names.nearest(last);
        // The folder is the same, so the route is as many edits away as its last segment.
        if (found) best = { id: siblings.ids[found.id] ?? 0, distance: found.distance };
      }
      this.whole ??= new CloseNames(this.lower, ROUTE_EDITS, this.work);
      const found = this.whole.nearest(query);
      if (
        found &&
        (!best || found.distance < best.distance || (found.distance === best.distance && found.id < best.id))
      )
        best = found;
    }
    const answer = best && this.routes[best.id];
    this.answers.set(query, answer);
    return answer;
  }
}

/**
 * `/a/b/` → folder `/a/`, last segment `b/`. The two make the route, so a route in the same folder is as
 * many edits away as its last segment.
 */
function splitRoute(route: string): { folder: string; last: string } {
  const last = /[^/]*\/?$/.exec(route)?.[0] ?? '';
  return { folder: route.slice(0, route.length - last.length), last };
}

/** The routes a relative link leads to when read from its file's folder and from the root; none for another link. */
function readElsewhere({ written, file }: WrittenLink): string[] {
  if (/^([a-z][a-z0-9+.-]*:|[/#])/i.test(written.trim())) return [];
  const folder = path.posix.dirname(file);
  const readings = [
    resolveLink(written, folder === '.' ? '/' : `/${folder}/`, file),
    resolveLink(written, '/', 'README.md'),
  ];
  return readings.flatMap((resolved) => (resolved.kind === 'internal' ? [resolved.route] : []));
}
