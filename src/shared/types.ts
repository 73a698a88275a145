/**
 * Shared by the build (src/node) and the reader app (src/client): keep it free of Node and DOM APIs.
 * These are the records that ship to the browser; build-only data lives in src/node/analyze/page-record.ts.
 */

/** One h2 or h3 of a page, as listed in its table of contents. */
export interface PageHeader {
  /** Heading level: only h2 and h3 are listed. */
  level: 2 | 3;
  /** Heading text as plain text (markup stripped). */
  title: string;
  /** Anchor id, GitHub-style, unique within the page. */
  slug: string;
}

/** Link override from frontmatter: `false` hides the link, a route path points it elsewhere. */
export type NeighbourOverride = false | string;

/** Frontmatter as written by the writer: the known keys are validated, any other key is kept as is. */
export interface PageFrontmatter {
  title?: string;
  description?: string;
  prev?: NeighbourOverride;
  next?: NeighbourOverride;
  lang?: string;
  [key: string]: unknown;
}

/** The metadata of one page, the fields a page record publishes, plus what the app needs to show it. */
export interface PageMeta {
  /** Page title: frontmatter `title`, else the first h1. */
  title: string;
  /** Page settings from the frontmatter. */
  frontmatter: PageFrontmatter;
  /** Public path without the base, with a trailing slash: `/api/auth/`. */
  regularPath: string;
  /** Source file path relative to the content folder: `api/auth/README.md`. */
  relativePath: string;
  /** Stable, unique, file-name-safe page key: `api.auth`. */
  key: string;
  /** Route path the router matches, without the base: `/api/auth/`. */
  path: string;
  /** Every h2 and h3, in document order. */
  headers: PageHeader[];
  /** Frontmatter description, else the first paragraph as plain text. */
  description: string;
  /** URL of the page's HTML fragment, with the base: `/docs/assets/js/page.api.auth.1a2b3c4d.html`. */
  fragment: string;
  /** Where to edit the page's source, when the site configures edit links. */
  editLink?: string;
  /** When the page's file last changed (ISO 8601), when the site shows it and git knows the file. */
  lastUpdated?: string;
  /**
   * Stylesheets the page needs beyond the site's, with the base: KaTeX's, on a page with math
   * (`/docs/assets/css/katex.1a2b3c4d.css`). The prerendered page links them; the app adds them.
   */
  stylesheets?: string[];
}

/** A link in the sidebar. */
export interface SidebarLink {
  text: string;
  /** Route path without the base. */
  link: string;
  /**
   * In the browser's site data: the URL of the linked page's fragment (its record's `fragment`), so that a
   * reader's intent (the pointer over the link) fetches the page's content at once, beside the route shard
   * that holds its record rather than after it.
   */
  fragment?: string;
}

/** A titled group of links in the sidebar. */
export interface SidebarGroup {
  text: string;
  items: SidebarLink[];
  /**
   * In the browser's manifest of a sidebar the build folded: the number of the group's entries, which are
   * in a file of their own (src/shared/site-data.ts); `items` is empty.
   */
  size?: number;
  /** With `size`: the name (a hash of its contents) of the file with the group's entries. */
  file?: string;
}

/** An entry of the docs version menu. */
export interface VersionLink {
  text: string;
  /** Absolute URL, or a route path for the current version. */
  link: string;
  /** Short badge shown beside the entry, such as "New". */
  badge?: string;
  /** True for the newest version, the one this content folder documents. */
  current?: boolean;
  /** Built with this site (the current version, or one from another folder or git ref): `link` is its base. */
  built?: true;
  /** An older built version whose pages search engines, sitemap.xml and llms.txt may list. */
  listed?: true;
}

/** Site-wide settings the app needs at run time. */
export interface SiteSettings {
  title: string;
  description: string;
  /** Base path the site is served under, with slashes: `/docs/`. */
  base: string;
  /** Origin used for canonical links: `https://example.com`. */
  siteUrl: string;
  lang: string;
  versions: VersionLink[];
  /** Tag-manager container id; analytics stays off when absent. */
  analyticsId?: string;
  /** Links in the header: a route path (without the base) or an absolute URL. */
  nav?: SidebarLink[];
  /** Domains whose iframes pages may embed (with their subdomains); the CSP's `frame-src` is made of them. */
  embeds?: string[];
  announcement?: Announcement;
  /** Where "Was this page helpful?" answers are sent (a POST of JSON); the question shows only with it. */
  feedback?: { endpoint: string };
}

/** The site-wide bar over every page (`announcement` of `_site.yaml`). */
export interface Announcement {
  /** Dismissing the bar is remembered for this id: a new id shows again. */
  id: string;
  /** The text as HTML: inline markdown, with emphasis and code only. */
  html: string;
  /** Where the bar leads: a URL with the base for a route, or an http(s) URL. */
  link?: string;
}

/** Everything the app knows about the site, fetched once as one content-hashed file. */
export interface Manifest {
  /** Content hash of this manifest; changes with every deployment that changes content. */
  hash: string;
  site: SiteSettings;
  sidebar: SidebarGroup[];
  /** Redirect table: old route path → new route path, both without the base. */
  redirects: Record<string, string>;
  /** URL of the search data's entry file (with the base); it names the shards (src/shared/search-layout.ts). */
  search: string;
  /** URL of the search worker script (with the base). */
  searchWorker: string;
  pages: PageMeta[];
  /**
   * In the browser's manifest (`SiteCore`): the names of the route shards the page records are split into
   * (src/shared/site-data.ts), and `pages` is empty. Absent in the whole manifest, whose `pages` is every page.
   */
  shards?: string[];
}

/**
 * The small, unhashed file that names the current manifest. Documents name no deployment (a page's
 * document stays the same while other pages change), so the app reads it as it starts; an open tab reads
 * it again to find a new deployment.
 */
export interface DeploymentPointer {
  manifest: string;
  hash: string;
  /** The manifest's `shards`, so that a page's route shard can be requested beside the manifest. */
  shards?: string[];
  /**
   * The app's entry module (with the base), as documents name it: an app whose code changed has a new
   * one while the manifest may stay the same, and an open tab of the old app learns from it that the
   * script chunks it asks for are gone for good (src/client/app/new-app.ts).
   */
  app?: string;
}

/** Why a chunk failed to load. */
export type ChunkLoadErrorType = 'missing' | 'timeout' | 'error';
