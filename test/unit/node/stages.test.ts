import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../helpers/tree';

/**
 * The build's stages in the order src/node/build.ts runs them (README, Architecture): the scan and the
 * page pass share `content/` and `markdown/`. A stage may import the ones before it, never one after.
 */
const STAGES: Record<string, number> = { content: 1, markdown: 1, highlight: 2, site: 3, output: 4 };

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/^(?:import|export)[^'"]*from '(\.{1,2}\/[^']+)'/gm)].map((m) => m[1] ?? '');
}

describe('the build stages', () => {
  it('import only the stages before them', () => {
    const node = path.join(projectRoot, 'src/node');
    const backwards: string[] = [];
    for (const [stage, rank] of Object.entries(STAGES)) {
      for (const name of readdirSync(path.join(node, stage)).filter((f) => f.endsWith('.ts'))) {
        const file = path.join(node, stage, name);
        for (const specifier of importsOf(file)) {
          const target = path.relative(node, path.resolve(path.dirname(file), specifier)).split(path.sep)[0] ?? '';
          const targetRank = STAGES[target];
          if (targetRank !== undefined && targetRank > rank) backwards.push(`${stage}/${name} → ${specifier}`);
        }
      }
    }
    expect(backwards).toEqual([]);
  });
});
