import type { Document, YAMLError } from 'yaml';
import { isNode } from 'yaml';
import type { z } from 'zod';
import { positionAt, type DiagnosticList } from '../diagnostics';

/** Line and column of a YAML parse error, shifted by the lines that precede the YAML in its file. */
export function yamlErrorPosition(error: YAMLError, lineOffset: number): { line: number; column: number } {
  const [line, column] = error.linePos?.[0] ? [error.linePos[0].line, error.linePos[0].col] : [1, 1];
  return { line: line + lineOffset, column };
}

/**
 * Turns schema failures into `file:line:col` diagnostics, pointing at the offending YAML node
 * (or its parent when the key is missing). `subject` names the whole document in messages about its
 * top level: "frontmatter" or "_site.yaml".
 */
export function reportSchemaIssues(
  error: z.ZodError,
  doc: Document,
  yamlText: string,
  lineOffset: number,
  file: string,
  subject: string,
  diagnostics: DiagnosticList,
): void {
  for (const issue of error.issues) {
    const keyPath = issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p));
    let node: unknown = doc.getIn(keyPath, true);
    for (let depth = keyPath.length - 1; !isNode(node) && depth >= 0; depth--) {
      node = depth === 0 ? doc.contents : doc.getIn(keyPath.slice(0, depth), true);
    }
    const offset = isNode(node) && node.range ? node.range[0] : 0;
    const { line, column } = positionAt(yamlText, offset);
    const where = keyPath.length > 0 ? `"${keyPath.join('.')}"` : subject;
    diagnostics.error(file, line + lineOffset, column, `${where} ${issueMessage(issue)}`);
  }
}

/** A record key that fails its own schema comes as "Invalid key in record"; the rule it broke is inside. */
function issueMessage(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_key') return issue.issues[0]?.message ?? issue.message;
  return issue.message;
}
