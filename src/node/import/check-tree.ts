import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from '../build';
import { projectRootOf } from '../compiled';
import type { Diagnostic } from '../diagnostics';

/**
 * The errors a strict `npm run build` of the imported tree would stop on, found by that build itself (into
 * a temporary folder, removed afterwards), so that what the import reports is what the build will say:
 * links to sections the old site had removed, relative links that never resolved. The tree is the
 * import's output; nothing of it is changed.
 */
export async function strictBuildErrors(contentDir: string): Promise<Diagnostic[]> {
  const scratch = await mkdtemp(path.join(tmpdir(), 'docs-import-check-'));
  try {
    const result = await build({
      contentDir,
      manifestDir: path.join(scratch, 'manifest'),
      outDir: path.join(scratch, 'dist'),
      cacheDir: path.join(scratch, 'cache'),
      srcDir: path.join(projectRootOf(import.meta.url), 'src'),
      strict: true,
    });
    return result.diagnostics.filter((d) => d.severity === 'error');
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** Whether a build error's message is about a link or an anchor that leads nowhere. */
export function isBrokenLink(message: string): boolean {
  return /^broken (link|anchor) /.test(message);
}
