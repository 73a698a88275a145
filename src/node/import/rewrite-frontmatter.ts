import { parseDocument } from 'yaml';
import { routeFromRelativePath } from '../../shared/paths';
import { resolveLink } from '../analyze/markdown/links';
import { titleFromPath } from '../analyze/page-source';
import type { ImportReport } from './report';

/** The line that opens (or closes) fenced code: its fence. */
export const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * The frontmatter, fixed where this site reads it otherwise: a `title:` added when neither it nor the body
 * has one, and `prev`/`next` written as relative links (`./setup`, `../guide/`) made routes, which is what
 * this site's frontmatter takes. Other keys stay as written.
 */
export function rewriteFrontmatter(
  front: { block: string; yaml: string } | undefined,
  body: string,
  file: string,
  ctx: { report: ImportReport; sourceName: string },
): string {
  const head = front?.block ?? '';
  const doc = parseDocument(front?.yaml ?? '');
  const data: unknown = doc.errors.length > 0 ? undefined : doc.toJS();
  if (doc.errors.length > 0 || (data !== null && data !== undefined && typeof data !== 'object')) return head + body;
  const fields = (data ?? {}) as Record<string, unknown>;
  let changed = false;
  for (const key of ['prev', 'next'] as const) {
    const value = fields[key];
    if (typeof value !== 'string' || value.startsWith('/')) continue;
    const resolved = resolveLink(value, routeFromRelativePath(file), file);
    if (resolved.kind !== 'internal') continue;
    doc.set(key, resolved.route);
    ctx.report.changed(file, 0, `\`${key}: ${value}\` became the route ${resolved.route}`);
    changed = true;
  }
  if (!(typeof fields['title'] === 'string' && fields['title'] !== '') && !hasH1(body)) {
    const hero = typeof fields['heroText'] === 'string' ? fields['heroText'] : undefined;
    const title = hero ?? titleFromPath(file, ctx.sourceName);
    ctx.report.changed(
      file,
      0,
      `the page had no title: it is "${title}"${hero ? ', its heroText' : ', from its file name'}`,
    );
    doc.set('title', title);
    changed = true;
  }
  return changed ? `---\n${doc.toString({ lineWidth: 0 })}---\n${body}` : head + body;
}

/** A `# heading` outside fenced code (ATX or setext). */
function hasH1(body: string): boolean {
  let fence: string | undefined;
  const lines = body.split('\n');
  for (const [i, line] of lines.entries()) {
    const opener = FENCE.exec(line)?.[1];
    if (opener) {
      fence = fence === undefined ? opener : opener[0] === fence[0] ? undefined : fence;
      continue;
    }
    if (fence !== undefined) continue;
    if (/^ {0,3}#(?:\s|$)/.test(line)) return true;
    if (/^ {0,3}=+\s*$/.test(line) && (lines[i - 1] ?? '').trim() !== '') return true;
  }
  return false;
}
