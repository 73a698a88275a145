import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { build } from '../../src/node/build';
import { RUN_SITE } from '../helpers/built-content';
import { formatDiagnostic } from '../../src/node/diagnostics';
import { ensureChromium } from './chromium';
import { ensureNginx, startNginx } from './nginx';
import { startPreview } from './preview';
import { RUN_FOLDER } from '../temp-setup';

declare module 'vitest' {
  export interface ProvidedContext {
    chromiumPath: string;
    distDir: string;
    /** A file next to dist/ (outside the served folder) whose contents no request may ever return. */
    outsideFile: { path: string; marker: string };
    servers: { name: string; url: string }[];
  }
}

const root = path.resolve(__dirname, '../..');

/** Which server the project tests: `env: { E2E_SERVER: 'nginx' }` in vitest.config.ts, else the preview server. */
function serverKind(project: TestProject): 'preview' | 'nginx' {
  const kind = project.config.env?.['E2E_SERVER'] ?? 'preview';
  if (kind !== 'preview' && kind !== 'nginx') throw new Error(`E2E_SERVER must be "preview" or "nginx", not "${kind}"`);
  return kind;
}

/** The real site, built, and a file next to its dist/ that no request may ever return. */
interface BuiltSite {
  work: string;
  distDir: string;
  outsideFile: { path: string; marker: string };
  /** The site is in a folder of its own, not the run's, and goes when the project's tests end. */
  ownFolder: boolean;
}

/**
 * Builds the real site once a run, into the run's folder (test/temp-setup.ts): the projects' set-ups run
 * one after another in one process, and no test writes to dist/, so the first project's build serves
 * every project that comes after it. The outside file is written last: while it is missing, there is no
 * finished build.
 */
async function buildOnce(): Promise<BuiltSite> {
  const runFolder = process.env[RUN_FOLDER];
  const work = runFolder ? path.join(runFolder, RUN_SITE.folder) : await mkdtemp(path.join(tmpdir(), 'docs-e2e-'));
  const distDir = path.join(work, 'dist');
  const outsideFile = {
    path: path.join(work, RUN_SITE.finished),
    marker: `outside-dist-${path.basename(runFolder ?? work)}`,
  };
  const site = { work, distDir, outsideFile, ownFolder: !runFolder };
  if (existsSync(outsideFile.path)) return site;
  const result = await build({
    contentDir: path.join(root, 'content'),
    manifestDir: path.join(work, 'manifest'),
    outDir: distDir,
    strict: true,
    cacheDir: path.join(root, 'node_modules/.cache/docs-build'),
    srcDir: path.join(root, 'src'),
    // The project's cache: a build of the project's own (or another test run's) may be using it.
    waitForLock: true,
  });
  const messages = result.diagnostics.map(formatDiagnostic);
  if (!result.ok) throw new Error(`the site does not build:\n${messages.join('\n')}`);
  // For the unit files that read the build of content/ rather than make their own (test/helpers/built-content.ts).
  await writeFile(path.join(work, RUN_SITE.messages), JSON.stringify(messages));
  await writeFile(outsideFile.path, `${outsideFile.marker}\n`);
  return site;
}

/** Serves the real site (built once a run) to the project's files, with the browser path and the URL. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const kind = serverKind(project);
  const chromiumPath = ensureChromium();
  const nginx = kind === 'nginx' ? ensureNginx() : undefined;
  const { work, distDir, outsideFile, ownFolder } = await buildOnce();

  let url: string;
  let stop: () => Promise<void>;
  if (nginx) {
    // nginx started as root reads files as its unprivileged worker user; mkdtemp made the folder private.
    await chmod(work, 0o755);
    const template = await readFile(path.join(root, 'deploy/nginx.conf'), 'utf8');
    const running = await startNginx({ nginx, template, distDir });
    url = running.url;
    stop = running.stop;
  } else {
    ({ url, stop } = await startPreview(distDir));
  }
  project.provide('chromiumPath', chromiumPath);
  project.provide('distDir', distDir);
  project.provide('outsideFile', outsideFile);
  project.provide('servers', [{ name: kind, url }]);
  return async () => {
    await stop();
    // Else the site is in the run's folder, removed when the run ends.
    if (ownFolder) await rm(work, { recursive: true, force: true });
  };
}
