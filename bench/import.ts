/**
 * The import's figures: `npm run import` of the VuePress 1 fixture (test/fixtures/vuepress1), and a cold
 * strict build of what it wrote, the two commands a writer moving an old site runs first. The import runs
 * in this process (it is short and single-threaded); the build in a child, as every bench build.
 */
import path from 'node:path';
import { importSite } from '../src/node/import/import-site';
import { buildPaths, buildSeries, projectRoot, seriesFigures, type BuildSeries, type Workspace } from './builds';
import type { Figure } from './report';

const FIXTURE = path.join(projectRoot, 'test/fixtures/vuepress1');
const RUNS = 3;

export interface ImportMeasurement {
  importMs: number[];
  pages: number;
  build: BuildSeries;
}

export async function measureImport(ws: Workspace, capMs: number): Promise<ImportMeasurement> {
  const importMs: number[] = [];
  let pages = 0;
  let content = '';
  for (let i = 0; i < RUNS; i++) {
    content = path.join(ws.root, `import-${i}`, 'content');
    const started = performance.now();
    pages = (await importSite({ source: FIXTURE, out: content })).pages;
    importMs.push(performance.now() - started);
  }
  const build = await buildSeries(
    'imported VuePress 1 fixture cold',
    1,
    () => buildPaths(ws, 'import-build', content),
    capMs,
  );
  return { importMs, pages, build };
}

export function importFigures(measured: ImportMeasurement): Figure[] {
  const sorted = [...measured.importMs].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? null;
  return [
    {
      section: 'Import',
      name: `npm run import, VuePress 1 fixture (${measured.pages} pages)`,
      value: median,
      unit: 'ms',
      note: `median of ${sorted.length}: ${measured.importMs.map((ms) => `${Math.round(ms)} ms`).join(' / ')}`,
    },
    ...seriesFigures(measured.build, {}).map((figure) => ({ ...figure, section: 'Import' })),
  ];
}
