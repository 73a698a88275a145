import { parseDocument } from 'yaml';
import { z } from 'zod';
import type { PageFrontmatter } from '../../shared/types';
import type { DiagnosticList } from '../diagnostics';
import { reportSchemaIssues, yamlErrorPosition } from './schema-errors';

const neighbour = z.union([z.literal(false), z.string().regex(/^\//, 'must be false or a route path')]);

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
}

const FENCE = /^---[ \t]*\r?\n([\s\S]*?)\r?\n?^(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/m;

/** Splits YAML frontmatter from the markdown body and validates it. */
export function splitFrontmatter(text: string, file: string, diagnostics: DiagnosticList): SplitSource {
  if (!text.startsWith('---')) return { frontmatter: {}, body: text, bodyLineOffset: 0 };
  const match = FENCE.exec(text);
  if (!match || match.index !== 0) {
    diagnostics.error(file, 1, 1, 'frontmatter starts with "---" but has no closing "---" line');
    return { frontmatter: {}, body: text, bodyLineOffset: 0 };
  }
  const yamlText = match[1] ?? '';
  const bodyLineOffset = match[0].split('\n').length - (match[0].endsWith('\n') ? 1 : 0);
  const body = text.slice(match[0].length);
  const doc = parseDocument(yamlText, { prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) {
    for (const error of doc.errors) {
      const { line, column } = yamlErrorPosition(error, 1);
      diagnostics.error(file, line, column, `invalid frontmatter YAML: ${error.message.split('\n')[0]}`);
    }
    return { frontmatter: {}, body, bodyLineOffset };
  }
  const value: unknown = doc.toJS() ?? {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    diagnostics.error(file, 2, 1, 'frontmatter must be a mapping of keys to values');
    return { frontmatter: {}, body, bodyLineOffset };
  }
  const result = frontmatterSchema.safeParse(value);
  if (!result.success) {
    reportSchemaIssues(result.error, doc, yamlText, 1, file, 'frontmatter', diagnostics);
    return { frontmatter: {}, body, bodyLineOffset };
  }
  return { frontmatter: result.data as PageFrontmatter, body, bodyLineOffset };
}
