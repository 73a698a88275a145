import { describe, expect, it } from 'vitest';
import { progressLog } from '../../../src/node/progress';

function linesFor(total: number, step: number): string[] {
  const lines: string[] = [];
  const progress = progressLog('rendered', total, (line) => lines.push(line));
  for (let done = step; done < total + step; done += step) progress(Math.min(done, total));
  return lines;
}

describe('build progress', () => {
  it('reports once every 500 pages of a large tree', () => {
    expect(linesFor(2000, 64)).toEqual([
      '  rendered 512/2000 pages',
      '  rendered 1024/2000 pages',
      '  rendered 1536/2000 pages',
      '  rendered 2000/2000 pages',
    ]);
  });

  it('says nothing for a tree of 300 pages or fewer', () => {
    expect(linesFor(300, 1)).toEqual([]);
  });
});
