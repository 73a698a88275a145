/**
 * `npm run dev` on a tree, as a writer meets it: how long until its server answers the first page, and how
 * long from a save of that page (the whole file rewritten) to its new text in an open Chromium tab: while
 * its first page pass still runs, and once it has made the whole site (where a writer spends the session).
 * The dev server runs compiled in a child process, as `npm run dev` runs it.
 */
import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { chromium } from 'playwright-core';
import { compile, compiledFile, projectRootOf } from '../src/node/compiled';
import { CHROMIUM_ARGS, ensureChromium } from '../test/e2e/chromium';
import type { Figure } from './report';

const projectRoot = projectRootOf(import.meta.url);
const SAVES = 3;
/** Once the first page pass has ended, before the saves: the tab's reload, and the search data's start. */
const AFTER_PASS_PAUSE_MS = 3000;
/** Between the saves once the site is made: a writer's pace, which lets the search data start in between. */
const BETWEEN_SAVES_MS = 1500;

export interface DevMeasurement {
  /** From the start of `npm run dev` to the first answer of the page, or null when it never answered. */
  firstAnswerMs: number | null;
  /** Each save's time from the write to its text in the tab, the first page pass still running. */
  savesShownMs: number[];
  /** The same, once the first page pass has made the whole site. */
  savesAfterPassMs: number[];
  error?: string;
}

/** A port nothing listens on now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Starts `npm run dev` on `content`, times its first answer of `route`, then three saves of `file`. */
export async function measureDev(content: string, route: string, file: string, capMs: number): Promise<DevMeasurement> {
  await compile(projectRoot);
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [compiledFile(projectRoot, 'dev'), content], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let passDone = false;
  const watch = (chunk: Buffer) => {
    if (chunk.toString().includes('built the site')) passDone = true;
  };
  child.stdout.on('data', watch);
  child.stderr.on('data', (chunk: Buffer) => {
    watch(chunk);
    stderr = (stderr + chunk.toString()).slice(-2000);
  });
  const url = `http://127.0.0.1:${port}/docs/${route}`;
  const original = await readFile(file, 'utf8');
  const result: DevMeasurement = { firstAnswerMs: null, savesShownMs: [], savesAfterPassMs: [] };
  try {
    while (result.firstAnswerMs === null) {
      if (performance.now() - started > capMs) throw new Error(`no answer in ${capMs / 1000} s`);
      if (child.exitCode !== null) throw new Error(`npm run dev stopped: ${stderr.trim().split('\n').at(-1) ?? ''}`);
      const answered = await fetch(url).then(
        (response) => response.ok,
        () => false,
      );
      if (answered) result.firstAnswerMs = performance.now() - started;
      else await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const browser = await chromium.launch({ executablePath: ensureChromium(), args: CHROMIUM_ARGS });
    try {
      const page = await browser.newPage();
      await page.goto(url);
      const hydrated = () => page.waitForFunction(() => document.documentElement.dataset['hydrated'] === 'true');
      await hydrated();
      const save = async (sentence: string) => {
        const saved = performance.now();
        await writeFile(file, `${original}\n${sentence}\n`);
        await page.waitForFunction(
          (text) => document.getElementById('page-content')?.textContent?.includes(text),
          sentence,
          { timeout: 30_000, polling: 50 },
        );
        return performance.now() - saved;
      };
      for (let i = 1; i <= SAVES; i++) result.savesShownMs.push(await save(`Bench save ${i} of this page.`));
      while (!passDone) {
        if (performance.now() - started > 10 * capMs) throw new Error('the first page pass never ended');
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      // The pass's end may reload the tab (a new stylesheet), and the search data is made after it.
      await new Promise((resolve) => setTimeout(resolve, AFTER_PASS_PAUSE_MS));
      await hydrated();
      for (let i = 1; i <= SAVES; i++) {
        result.savesAfterPassMs.push(await save(`Bench save ${i} once the site is made.`));
        await new Promise((resolve) => setTimeout(resolve, BETWEEN_SAVES_MS));
      }
    } finally {
      await browser.close();
    }
  } catch (error) {
    result.error = error instanceof Error ? error.message : String(error);
  } finally {
    child.kill('SIGTERM');
    await writeFile(file, original);
  }
  return result;
}

/** The figures of one measurement: the first answer within 10 s, each save shown within a second. */
export function devFigures(section: string, measured: DevMeasurement): Figure[] {
  const { firstAnswerMs, savesShownMs, savesAfterPassMs, error } = measured;
  const slowest = (saves: number[]) => (saves.length === SAVES ? Math.round(Math.max(...saves)) : null);
  return [
    {
      section,
      name: 'npm run dev: first answer',
      value: firstAnswerMs === null ? null : Math.round(firstAnswerMs),
      unit: 'ms',
      target: { max: 10_000 },
      ...(error && firstAnswerMs === null ? { note: error } : {}),
    },
    {
      section,
      name: `npm run dev: save → shown during the first pass (slowest of ${SAVES})`,
      value: slowest(savesShownMs),
      unit: 'ms',
      target: { max: 1_000 },
      note: error ?? savesShownMs.map((ms) => Math.round(ms)).join(', '),
    },
    {
      section,
      name: `npm run dev: save → shown once the site is made (slowest of ${SAVES})`,
      value: slowest(savesAfterPassMs),
      unit: 'ms',
      target: { max: 1_000 },
      note: error ?? savesAfterPassMs.map((ms) => Math.round(ms)).join(', '),
    },
  ];
}
