import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseDocument } from 'yaml';
import * as z from 'zod';
import type { DiagnosticList } from '../diagnostics';
import { DEFAULT_EMBED_DOMAINS } from './embeds';
import { documentValue, reportSchemaIssues, yamlErrorPosition } from './schema-errors';

/** The site configuration file, inside the content tree so writers own it. */
export const SITE_CONFIG_FILE = '_site.yaml';

const routePath = z.string().regex(/^\//, 'must be a route path starting with "/"');

/**
 * An entry of the version menu: a version hosted elsewhere (`link`), the version of this content folder
 * (`current`), or one built with it from another folder (`content`) or a git ref of the same repository
 * (`git`, with the folder at `path`), served at `route` under the site's base.
 */
const versionEntry = z
  .strictObject({
    text: z.string().min(1),
    badge: z.string().optional(),
    current: z.boolean().optional(),
    link: z.string().min(1).optional(),
    content: z.string().min(1).optional(),
    git: z.string().min(1).optional(),
    path: z.string().min(1).optional(),
    route: z
      .string()
      .regex(/^\/([^/?#]+\/)+$/, 'must be a route such as /v1/')
      .optional(),
    /** false: the version's problems are warnings (an old version's broken links); the current one stays strict. */
    strict: z.boolean().optional(),
    /** An older version is kept out of search engines, sitemap.xml and llms.txt unless it is listed. */
    listed: z.boolean().optional(),
  })
  .superRefine((entry, context) => {
    const problem = (key: string, message: string) => context.addIssue({ code: 'custom', path: [key], message });
    const built = entry.content !== undefined || entry.git !== undefined;
    if (entry.content !== undefined && entry.git !== undefined)
      problem('git', 'a version comes from a folder (content) or a git ref (git), not both');
    if (built && entry.link !== undefined)
      problem('link', 'a version built with this site has no link: it is at its route');
    if (built && entry.current)
      problem('current', 'the current version is this content folder: it has no content or git');
    if (built && entry.route === undefined)
      problem(entry.content !== undefined ? 'content' : 'git', 'a built version needs a route, such as /v1/');
    if (!built && entry.route !== undefined) problem('route', 'only a version with content or git has a route');
    if (entry.path !== undefined && entry.git === undefined)
      problem('path', 'path names the content folder of a git ref: give git too');
    if (!built && !entry.current && entry.link === undefined) problem('text', 'a version needs a link, content or git');
    if (!built && (entry.strict !== undefined || entry.listed !== undefined))
      problem(
        entry.strict !== undefined ? 'strict' : 'listed',
        'only a version built with this site has strict or listed',
      );
  });

/** One version is this content folder, at most. */
function oneCurrentVersion(entries: { current?: boolean | undefined }[], context: z.RefinementCtx): void {
  const current = entries.flatMap((entry, index) => (entry.current ? [index] : []));
  for (const index of current.slice(1))
    context.addIssue({
      code: 'custom',
      path: [index, 'current'],
      message: 'another version is already the current one',
    });
}

export const siteConfigSchema = z.strictObject({
  title: z.string().min(1),
  description: z.string().default(''),
  base: z
    .string()
    .regex(/^\/([^/]+\/)*$/, 'must start and end with "/"')
    .default('/docs/'),
  siteUrl: z.url().default('http://localhost'),
  lang: z.string().default('en-US'),
  analyticsId: z.string().optional(),
  /** The version menu; a version with `content:` or `git:` is built with this site (src/node/versions/). */
  versions: z.array(versionEntry).superRefine(oneCurrentVersion).default([]),
  sidebar: z.array(z.strictObject({ text: z.string(), items: z.array(routePath) })).optional(),
  redirects: z.record(routePath, routePath).default({}),
  /** Links in the header, beside the title: a route path such as `/api/rest/` or an https URL. */
  nav: z
    .array(
      z.strictObject({
        text: z.string().min(1),
        link: z.string().regex(/^(\/|https?:\/\/)/, 'must be a route path or an http(s) URL'),
      }),
    )
    .default([]),
  /** "Edit this page" under every page: `:path` is the page's path in the content folder. */
  editLink: z
    .strictObject({ pattern: z.string().regex(/^https?:\/\/.*:path/, 'must be an http(s) URL containing ":path"') })
    .optional(),
  /** Number the lines of every code block whose fence does not say otherwise (`ts:no-line-numbers`). */
  lineNumbers: z.boolean().default(false),
  /** "Last updated" under every page, from the git history of its file when the site is built. */
  lastUpdated: z.boolean().default(false),
  /** Domains whose iframes pages keep (see src/node/scan/embeds.ts). */
  embeds: z
    .array(z.string().regex(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/, 'must be a domain such as youtube.com'))
    .default([...DEFAULT_EMBED_DOMAINS]),
  /** "Was this page helpful?" under every page, answered by a POST of JSON to `endpoint`. */
  feedback: z.strictObject({ endpoint: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }) }).optional(),
  /** A bar over every page until a reader dismisses it; a new `id` shows again to those who did. */
  announcement: z
    .strictObject({
      id: z.string().regex(/^[A-Za-z0-9_-]+$/, 'must be letters, digits, "-" or "_", such as launch-2026'),
      /** Inline markdown: emphasis and code; the bar's link is `link`. */
      text: z.string().min(1),
      link: z
        .string()
        .regex(/^(\/|https?:\/\/)/, 'must be a route path or an http(s) URL')
        .optional(),
    })
    .optional(),
  /** Reference pages made from OpenAPI documents of the content folder (src/node/openapi/). */
  apiReference: z
    .array(
      z.strictObject({
        spec: z.string().regex(/^[^/].*\.(ya?ml|json)$/i, 'must be a .yaml, .yml or .json file in the content folder'),
        route: z.string().regex(/^\/([^/?#]+\/)+$/, 'must be a route such as /api/reference/'),
      }),
    )
    .default([]),
  constants: z
    .record(
      z.string().regex(/^[A-Z][A-Z0-9_]*$/, 'constant names are UPPER_SNAKE_CASE'),
      z.union([z.string(), z.number()]).transform(String),
    )
    .default({}),
});

export type SiteConfig = z.infer<typeof siteConfigSchema>;

/**
 * Reads and validates the site configuration, once: its text comes along for the line numbers of
 * site-level problems. A tree without one gets the defaults. `valid` is false when the file has a problem:
 * every page depends on its settings (base, constants), so the build stops before the pages, whose
 * problems would only be echoes of it.
 */
export async function readSiteConfig(
  contentDir: string,
  diagnostics: DiagnosticList,
): Promise<{ config: SiteConfig; configText: string; valid: boolean }> {
  const file = path.join(contentDir, SITE_CONFIG_FILE);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    const config = siteConfigSchema.parse({ title: path.basename(path.resolve(contentDir)) });
    return { config, configText: '', valid: true };
  }
  const config = parseSiteConfig(text, diagnostics);
  return { config: config ?? siteConfigSchema.parse({ title: 'Documentation' }), configText: text, valid: !!config };
}

/** `_site.yaml`'s text, validated; undefined when it has problems, each reported as an error however strict the build. */
function parseSiteConfig(text: string, diagnostics: DiagnosticList): SiteConfig | undefined {
  const report = (line: number, column: number, message: string) =>
    diagnostics.fatal(SITE_CONFIG_FILE, line, column, message);
  const doc = parseDocument(text, { prettyErrors: false });
  if (doc.errors.length > 0) {
    for (const error of doc.errors) {
      const { line, column } = yamlErrorPosition(error, 0);
      report(line, column, `invalid YAML: ${error.message.split('\n')[0]}`);
    }
    return undefined;
  }
  const value = documentValue(doc, text, 0, report);
  if (value === undefined) return undefined;
  const result = siteConfigSchema.safeParse(value);
  if (!result.success) {
    reportSchemaIssues(result.error, doc, text, 0, SITE_CONFIG_FILE, report);
    return undefined;
  }
  return result.data;
}
