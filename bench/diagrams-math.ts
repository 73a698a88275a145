/**
 * What 1,000 mermaid diagrams and 1,000 formulas cost a build, part of `npm run bench` (or on its own:
 * `npx tsx bench/diagrams-math.ts [--runs 2]`). Three trees of 100 pages with the same prose: one with
 * nothing else, one also with ten diagrams a page, one with ten formulas a page, each different. Each is
 * built cold (empty cache), then again after one page changed (cache warm), in turns (A B C A B C), with
 * the real build in this process; its CPU time is taken, as a busy machine stretches the wall-clock time.
 * A cost is the difference from the plain tree, best run against best run.
 */
import { appendFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { build } from '../src/node/build';
import { projectRootOf } from '../src/node/compiled';
import type { Figure } from './report';

const projectRoot = projectRootOf(import.meta.url);
const PAGES = 100;
const EACH = 10;
const EXTRAS = PAGES * EACH;

/**
 * CPU budgets, in ms for the 1,000: a cold build may spend tens of milliseconds on each diagram (its
 * layout) and a few on each formula; a build after one changed page redraws only that page's ten, the
 * rest coming from the caches.
 */
export const DIAGRAMS_MATH_TARGETS = {
  diagramsColdMs: 20_000,
  formulasColdMs: 5_000,
  cachedMs: 1_000,
};

type Kind = 'plain' | 'diagrams' | 'formulas';
const KINDS: Kind[] = ['plain', 'diagrams', 'formulas'];

export interface DiagramsMathMeasurement {
  runs: number;
  /** CPU ms of each build, by tree and by build. */
  cpuMs: Record<Kind, { cold: number[]; cached: number[] }>;
  loadAverage: number[];
}

function page(n: number, kind: Kind): string {
  const parts = [`# Page ${n}`, '', `Prose of page ${n}, the same in every tree.`, ''];
  for (let i = 0; i < EACH; i++) {
    const id = n * EACH + i;
    parts.push(`## Part ${i}`, '', `Paragraph ${id} explains a step of the flow.`, '');
    if (kind === 'diagrams') {
      parts.push('```mermaid', `flowchart LR`, `  a${id}[Source ${id}] --> b${id}{Workflow} --> c${id}[Step ${i}]`);
      parts.push(`  b${id} --> d${id}[(Destination ${id})]`, '```', '');
    }
    if (kind === 'formulas') parts.push(`The cost is $\\sum_{k=1}^{${id + 2}} \\frac{k^2}{${i + 3}}$ credits.`, '');
  }
  return parts.join('\n');
}

async function tree(work: string, kind: Kind): Promise<string> {
  const content = path.join(work, kind, 'content');
  await mkdir(content, { recursive: true });
  await writeFile(path.join(content, '_site.yaml'), 'title: Bench\n');
  for (let n = 0; n < PAGES; n++) await writeFile(path.join(content, `page-${n}.md`), page(n, kind));
  return path.dirname(content);
}

/** CPU ms of this process (all its threads) for one build of the tree at `root`. */
async function cpuOfBuild(root: string): Promise<number> {
  const started = process.cpuUsage();
  const result = await build({
    contentDir: path.join(root, 'content'),
    manifestDir: path.join(root, 'manifest'),
    outDir: path.join(root, 'dist'),
    cacheDir: path.join(root, '.cache'),
    srcDir: path.join(projectRoot, 'src'),
    strict: true,
  });
  if (!result.ok) throw new Error(`the bench tree did not build: ${result.diagnostics[0]?.message}`);
  const used = process.cpuUsage(started);
  return (used.user + used.system) / 1000;
}

export async function measureDiagramsMath(runs: number): Promise<DiagramsMathMeasurement> {
  const work = await mkdtemp(path.join(tmpdir(), 'bench-diagrams-math-'));
  try {
    const roots = {
      plain: await tree(work, 'plain'),
      diagrams: await tree(work, 'diagrams'),
      formulas: await tree(work, 'formulas'),
    };
    const series = () => ({ cold: [] as number[], cached: [] as number[] });
    const cpuMs = { plain: series(), diagrams: series(), formulas: series() };
    // A build first that is not counted: the first build of a process also loads and optimises the build's code.
    await cpuOfBuild(roots.plain);
    for (let run = 0; run < runs; run++) {
      for (const kind of KINDS) {
        const root = roots[kind];
        for (const out of ['manifest', 'dist', '.cache'])
          await rm(path.join(root, out), { recursive: true, force: true });
        cpuMs[kind].cold.push(await cpuOfBuild(root));
        await appendFile(path.join(root, 'content/page-0.md'), `\nEdited in run ${run}.\n`);
        cpuMs[kind].cached.push(await cpuOfBuild(root));
      }
    }
    return { runs, cpuMs, loadAverage: loadavg() };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

export function diagramsMathFigures(measured: DiagramsMathMeasurement): Figure[] {
  const best = (list: number[]) => Math.min(...list);
  const cost = (kind: Kind, build: 'cold' | 'cached') =>
    Math.max(0, best(measured.cpuMs[kind][build]) - best(measured.cpuMs.plain[build]));
  const note = (kind: Kind, build: 'cold' | 'cached') =>
    `CPU beyond the plain tree's, best of ${measured.runs}: ${measured.cpuMs[kind][build].map(Math.round).join(' / ')} ms ` +
    `against ${measured.cpuMs.plain[build].map(Math.round).join(' / ')} ms; load ${measured.loadAverage.map((l) => l.toFixed(1)).join(' ')}`;
  const figure = (kind: 'diagrams' | 'formulas', build: 'cold' | 'cached', max: number): Figure => ({
    section: 'Diagrams and math',
    name: `${EXTRAS.toLocaleString('en')} ${kind === 'diagrams' ? 'mermaid diagrams' : 'formulas'}, ${
      build === 'cold' ? 'cold build' : 'one page changed'
    } (CPU)`,
    value: cost(kind, build),
    unit: 'ms',
    target: { max },
    note: note(kind, build),
  });
  const { diagramsColdMs, formulasColdMs, cachedMs } = DIAGRAMS_MATH_TARGETS;
  return [
    figure('diagrams', 'cold', diagramsColdMs),
    figure('diagrams', 'cached', cachedMs),
    figure('formulas', 'cold', formulasColdMs),
    figure('formulas', 'cached', cachedMs),
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '2' } } });
  const measured = await measureDiagramsMath(Number(values.runs));
  for (const f of diagramsMathFigures(measured)) console.log(`${f.name}: ${Math.round(f.value ?? 0)} ms (${f.note})`);
}
