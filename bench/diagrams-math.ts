/**
 * `npx tsx bench/diagrams-math.ts [--runs 2]`: what 1,000 mermaid diagrams and 1,000 formulas cost a
 * build. Two trees of 100 pages, the same prose in both; one also has ten diagrams and ten formulas a
 * page, each different. Each is built cold (empty cache), then again after one page changed (cache warm),
 * in turns (A B A B), with the real build in this process; its CPU time is reported, as a busy machine
 * stretches the wall-clock time. The cost is the difference between the trees.
 */
import { mkdtemp, rm, writeFile, mkdir, appendFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { build } from '../src/node/build';
import { projectRootOf } from '../src/node/compiled';

const projectRoot = projectRootOf(import.meta.url);
const PAGES = 100;
const EACH = 10;

function page(n: number, extras: boolean): string {
  const parts = [`# Page ${n}`, '', `Prose of page ${n}, the same in both trees.`, ''];
  for (let i = 0; i < EACH; i++) {
    const id = n * EACH + i;
    parts.push(`## Part ${i}`, '', `Paragraph ${id} explains a step of the flow.`, '');
    if (!extras) continue;
    parts.push('```mermaid', `flowchart LR`, `  a${id}[Source ${id}] --> b${id}{Workflow} --> c${id}[Step ${i}]`);
    parts.push(`  b${id} --> d${id}[(Destination ${id})]`, '```', '');
    parts.push(`The cost is $\\sum_{k=1}^{${id + 2}} \\frac{k^2}{${i + 3}}$ credits.`, '');
  }
  return parts.join('\n');
}

async function tree(root: string, extras: boolean): Promise<string> {
  const content = path.join(root, extras ? 'with' : 'without', 'content');
  await mkdir(content, { recursive: true });
  await writeFile(path.join(content, '_site.yaml'), 'title: Bench\n');
  for (let n = 0; n < PAGES; n++) await writeFile(path.join(content, `page-${n}.md`), page(n, extras));
  return path.dirname(content);
}

/** CPU seconds of this process (all its threads), which the machine's other work does not inflate. */
async function timed(root: string): Promise<number> {
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
  return (used.user + used.system) / 1e6;
}

const { values } = parseArgs({ options: { runs: { type: 'string', default: '2' } } });
const work = await mkdtemp(path.join(tmpdir(), 'bench-diagrams-math-'));
const trees = { without: await tree(work, false), with: await tree(work, true) };
const seconds: Record<string, { cold: number[]; cached: number[] }> = {
  without: { cold: [], cached: [] },
  with: { cold: [], cached: [] },
};
for (let run = 0; run < Number(values.runs); run++) {
  for (const name of ['without', 'with'] as const) {
    const root = trees[name];
    for (const out of ['manifest', 'dist', '.cache']) await rm(path.join(root, out), { recursive: true, force: true });
    seconds[name]!.cold.push(await timed(root));
    await appendFile(path.join(root, 'content/page-0.md'), `\nEdited in run ${run}.\n`);
    seconds[name]!.cached.push(await timed(root));
  }
}
const best = (list: number[]) => Math.min(...list);
const line = (what: 'cold' | 'cached') =>
  `${what.padEnd(7)} CPU without ${best(seconds.without![what]).toFixed(2)} s, with ${best(seconds.with![what]).toFixed(2)} s: ` +
  `${(best(seconds.with![what]) - best(seconds.without![what])).toFixed(2)} s for ${PAGES * EACH} diagrams and ${PAGES * EACH} formulas`;
console.log(
  `${PAGES} pages, best of ${values.runs} runs each, load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
console.log(line('cold'));
console.log(line('cached'));
await rm(work, { recursive: true, force: true });
