import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compile, compiledFile, projectRootOf } from '../../../src/node/compiled';
import { projectRoot } from '../../helpers/tree';

describe('the compiled build', () => {
  it('finds the same project from a source file and from its compiled file', () => {
    expect(projectRootOf(pathToFileURL(`${projectRoot}/build.ts`).href)).toBe(projectRoot);
    expect(projectRootOf(pathToFileURL(`${projectRoot}/scripts/dev.ts`).href)).toBe(projectRoot);
    expect(projectRootOf(pathToFileURL(compiledFile(projectRoot, 'build')).href)).toBe(projectRoot);
  });

  it('is not compiled again when no source changed since the test set-up compiled it', async () => {
    for (const entry of ['build', 'dev', 'highlight-worker', 'bench-build-once'] as const) {
      expect(existsSync(compiledFile(projectRoot, entry))).toBe(true);
    }
    expect(await compile(projectRoot)).toBe(false);
  });
});
