import { parseDocument, type Document } from 'yaml';
import * as z from 'zod';
import type { PageFrontmatter } from '../../shared/types';
import { positionAt, type DiagnosticList } from '../diagnostics';
import { resolveLink } from './markdown/links';
import { documentValue, reportSchemaIssues, yamlErrorPosition } from '../scan/schema-errors';

// `//host/x` would be a link to another site, not a route.
const neighbour = z.union([z.literal(false), z.string().regex(/^\/(?!\/)/, 'must be false or a route path')]);

/** Known keys are checked; any other key is kept as the writer wrote it. */
export const frontmatterSchema = z.looseObject({
  title: z.string().min(1).optional(),
  description: z.string().optional(),
  prev: neighbour.optional(),
  next: neighbour.optional(),
  lang: z.string().min(1).optional(),
});

export interface SplitSource {
  frontmatter: PageFrontmatter;
  body: string;
  /** Number of lines before the body starts (the frontmatter block), to report body positions. */
  bodyLineOffset: number;
  /** The `prev`/`next` routes, checked against the site's pages once every page is known. */
  neighbours: NeighbourReference[];
}

/** A frontmatter `prev` or `next` route, where it was written. */
export interface NeighbourReference {
  key: 'prev' | 'next';
  written: string;
  /** Canonical route, as the frontmatter ships it. */
  route: string;
  line: number;
  column: number;
}

const FENCE = /^---[ \t]*\r?\n([\s\S]*?)\r?\n?^(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/m;

/**
 * The frontmatter block at the start of a page: the whole block with its `---` lines, and the YAML inside.
 * Undefined when the text has none, or opens one and never closes it.
 */
export function frontmatterBlock(text: string): { block: string; yaml: string } | undefined {
  if (!text.startsWith('---')) return undefined;
  const match = FENCE.exec(text);
  return match && match.index === 0 ? { block: match[0], yaml: match[1] ?? '' } : undefined;
}

/** Splits YAML frontmatter from the markdown body and validates it. */
export function splitFrontmatter(text: string, file: string, diagnostics: DiagnosticList): SplitSource {
  if (!text.startsWith('---')) return { frontmatter: {}, body: text, bodyLineOffset: 0, neighbours: [] };
  const found = frontmatterBlock(text);
  if (!found) {
    diagnostics.error(file, 1, 1, 'frontmatter starts with "---" but has no closing "---" line');
    return { frontmatter: {}, body: text, bodyLineOffset: 0, neighbours: [] };
  }
  const { block, yaml: yamlText } = found;
  const bodyLineOffset = block.split('\n').length - (block.endsWith('\n') ? 1 : 0);
  const body = text.slice(block.length);
  const doc = parseDocument(yamlText, { prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) {
    for (const error of doc.errors) {
      const { line, column } = yamlErrorPosition(error, 1);
      diagnostics.error(file, line, column, `invalid frontmatter YAML: ${error.message.split('\n')[0]}`);
    }
    return { frontmatter: {}, body, bodyLineOffset, neighbours: [] };
  }
  const report = (line: number, column: number, message: string) => diagnostics.error(file, line, column, message);
  // The YAML starts on the line after the opening `---`.
  const value = documentValue(doc, yamlText, 1, report);
  if (value === undefined) return { frontmatter: {}, body, bodyLineOffset, neighbours: [] };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    diagnostics.error(file, 2, 1, 'frontmatter must be a mapping of keys to values');
    return { frontmatter: {}, body, bodyLineOffset, neighbours: [] };
  }
  const result = frontmatterSchema.safeParse(value);
  if (!result.success) {
    reportSchemaIssues(result.error, doc, yamlText, 1, 'frontmatter', report);
    return { frontmatter: {}, body, bodyLineOffset, neighbours: [] };
  }
  const frontmatter = result.data as PageFrontmatter;
  return { frontmatter, body, bodyLineOffset, neighbours: canonicalNeighbours(frontmatter, doc, yamlText) };
}

/**
 * Rewrites `prev`/`next` routes to the canonical form links use (`/guide` → `/guide/`, `/x/README.md` →
 * `/x/`), because the app looks them up exactly as they ship, and notes where each was written.
 */
function canonicalNeighbours(frontmatter: PageFrontmatter, doc: Document, yamlText: string): NeighbourReference[] {
  const found: NeighbourReference[] = [];
  for (const key of ['prev', 'next'] as const) {
    const written = frontmatter[key];
    if (typeof written !== 'string') continue;
    const resolved = resolveLink(written, '/', '');
    const route = resolved.kind === 'internal' ? resolved.route : written;
    const node = doc.get(key, true) as { range?: [number, number, number] } | undefined;
    const { line, column } = positionAt(yamlText, node?.range?.[0] ?? 0);
    frontmatter[key] = route;
    // The YAML starts on the line after the opening `---`.
    found.push({ key, written, route, line: line + 1, column });
  }
  return found;
}
