import type { Document, YAMLError } from 'yaml';
import { isMap, isNode, isScalar, visit } from 'yaml';
import type { z } from 'zod';
import { positionAt } from '../diagnostics';

/** Reports one problem of a YAML text at a line and column of its file. */
export type ReportAt = (line: number, column: number, message: string) => void;

/** Line and column of a YAML parse error, shifted by the lines that precede the YAML in its file. */
export function yamlErrorPosition(error: YAMLError, lineOffset: number): { line: number; column: number } {
  const [line, column] = error.linePos?.[0] ? [error.linePos[0].line, error.linePos[0].col] : [1, 1];
  return { line: line + lineOffset, column };
}

/**
 * The value of a parsed YAML document, or undefined with the problem reported: the yaml library refuses a
 * document whose aliases (`*name`) would expand past its limit (an "alias bomb", a few lines that grow to
 * gigabytes), and says so without a position; the first alias is where the writer can look.
 */
export function documentValue(doc: Document, yamlText: string, lineOffset: number, report: ReportAt): unknown {
  try {
    return doc.toJS() ?? {};
  } catch (error) {
    if (!(error instanceof ReferenceError)) throw error;
    let offset = 0;
    visit(doc, {
      Alias(_key, node) {
        offset = node.range?.[0] ?? 0;
        return visit.BREAK;
      },
    });
    const { line, column } = positionAt(yamlText, offset);
    report(line + lineOffset, column, 'YAML aliases (*name) here expand to too many values: write the values out');
    return undefined;
  }
}

/**
 * Turns schema failures into `file:line:col` diagnostics, pointing at the offending YAML node
 * (or its parent when the key is missing; an unknown key at the key itself). `subject` names the whole
 * document in messages about its top level: "frontmatter" or "_site.yaml".
 */
export function reportSchemaIssues(
  error: z.ZodError,
  doc: Document,
  yamlText: string,
  lineOffset: number,
  subject: string,
  report: ReportAt,
): void {
  const at = (node: unknown) => {
    const { line, column } = positionAt(yamlText, isNode(node) && node.range ? node.range[0] : 0);
    return [line + lineOffset, column] as const;
  };
  for (const issue of error.issues) {
    const keyPath = issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p));
    let node: unknown = doc.getIn(keyPath, true);
    for (let depth = keyPath.length - 1; !isNode(node) && depth >= 0; depth--) {
      node = depth === 0 ? doc.contents : doc.getIn(keyPath.slice(0, depth), true);
    }
    const where = keyPath.length > 0 ? `"${keyPath.join('.')}"` : subject;
    if (issue.code === 'unrecognized_keys' && isMap(node)) {
      for (const key of issue.keys) {
        const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === key);
        report(...at(pair?.key ?? node), `unknown key "${key}" in ${where}`);
      }
      continue;
    }
    report(...at(node), `${where} ${issueMessage(issue)}`);
  }
}

/** A record key that fails its own schema comes as "Invalid key in record"; the rule it broke is inside. */
function issueMessage(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_key') return issue.issues[0]?.message ?? issue.message;
  return issue.message;
}
