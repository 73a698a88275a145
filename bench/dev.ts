/**
 * `npm run dev` on a tree, as a writer meets it: how long until its server answers the first page, and how
 * long from a save of that page (the whole file rewritten) to its new text in an open Chromium tab. The dev
 * server runs compiled in a child process, as `npm run dev` runs it.
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

export interface DevMeasurement {
  /** From the start of `npm run dev` to the first answer of the page, or null when it never answered. */
  firstAnswerMs: number | null;
  /** Each save's time from the write to its text in the tab. */
  savesShownMs: number[];
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
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
  const url = `http://127.0.0.1:${port}/docs/${route}`;
  const original = await readFile(file, 'utf8');
  const result: DevMeasurement = { firstAnswerMs: null, savesShownMs: [] };
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
      await page.waitForFunction(() => document.documentElement.dataset['hydrated'] === 'true');
      for (let i = 1; i <= SAVES; i++) {
        const sentence = `Bench save ${i} of this page.`;
        const saved = performance.now();
        await writeFile(file, `${original}\n${sentence}\n`);
        await page.waitForFunction(
          (text) => document.getElementById('page-content')?.textContent?.includes(text),
          sentence,
          { timeout: 30_000 },
        );
        result.savesShownMs.push(performance.now() - saved);
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
  const { firstAnswerMs, savesShownMs, error } = measured;
  const slowest = savesShownMs.length === SAVES ? Math.max(...savesShownMs) : null;
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
      name: `npm run dev: save → shown (slowest of ${SAVES})`,
      value: slowest === null ? null : Math.round(slowest),
      unit: 'ms',
      target: { max: 1_000 },
      note: error ?? savesShownMs.map((ms) => Math.round(ms)).join(', '),
    },
  ];
}
