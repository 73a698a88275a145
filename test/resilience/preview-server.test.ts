import { readFileSync } from 'node:fs';
import { cp, mkdir, rm, unlink, writeFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTree, makeTree, messages } from '../helpers/tree';
import { startPreviewProcess, type PreviewProcess } from './preview-process';
import { rawGet } from './raw-http';

/**
 * `npm run preview` as its own process over temporary sites: a server that dies shows as an exited process.
 * It must survive a rebuild under load, serve a rebuild's new redirects and embed domains without a
 * restart, and serve a site at the base it was built for.
 */

const PAGES = 48;
const paragraph = 'A sentence long enough to make each page a few kilobytes, so that reading one takes a while. ';
const pageFile = (i: number) => `p${i}.md`;
const pageText = (i: number) => `# Page ${i}\n\n${Array.from({ length: 60 }, () => paragraph).join('\n\n')}\n`;
const siteYaml = (extra = '') => `title: Rebuilt\n${extra}`;

async function buildOrThrow(root: string): Promise<void> {
  const result = await buildTree(root);
  if (!result.ok) throw new Error(`the test tree does not build:\n${messages(result).join('\n')}`);
}

/** A GET over a fresh connection, read to the end: the status, or the error that ended it. */
function read(url: string): Promise<number | string> {
  return new Promise((resolve) => {
    const req = http.get(url, { agent: false }, (res) => {
      res.on('data', () => {});
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

describe('npm run preview while the site is rebuilt', () => {
  let root = '';
  let server: PreviewProcess | undefined;
  const url = (target: string) => `${server?.url.replace(/\/docs\/$/, '')}${target}`;
  const alive = async () => {
    expect(server?.exitCode(), server?.errors()).toBeUndefined();
    const answer = await rawGet(url(''), '/docs/p0/');
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('Page 0');
  };

  beforeAll(async () => {
    const files: Record<string, string> = { '_site.yaml': siteYaml(), 'README.md': '# Home\n\nThe pages.\n' };
    for (let i = 0; i < PAGES; i++) files[pageFile(i)] = pageText(i);
    root = await makeTree(files);
    await buildOrThrow(root);
    server = await startPreviewProcess(path.join(root, 'dist'));
  });
  afterAll(async () => {
    await server?.stop();
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('keeps serving while rebuilds remove, then restore, the files that 32 readers are reading', async () => {
    // The second half of the pages comes and goes; the readers ask for exactly those files.
    const gone = Array.from({ length: PAGES / 2 }, (_, i) => i + PAGES / 2);
    const targets = gone.flatMap((i) => [`/docs/p${i}/`, `/docs/p${i}.md`]);
    let reading = true;
    const statuses = new Map<number | string, number>();
    const reader = async (n: number) => {
      for (let k = n; reading; k += 32) {
        const status = await read(url(targets[k % targets.length] ?? '/docs/'));
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    };
    const readers = Array.from({ length: 32 }, (_, n) => reader(n));
    try {
      for (let round = 0; round < 2; round++) {
        for (const i of gone) {
          const file = path.join(root, 'content', pageFile(i));
          if (round % 2 === 0) await unlink(file);
          else await writeFile(file, pageText(i));
        }
        await buildOrThrow(root);
      }
    } finally {
      reading = false;
      await Promise.all(readers);
    }
    expect(server?.exitCode(), server?.errors()).toBeUndefined();
    // Each read got an answer: the page, or (while its file was away) the 404 page. Never a 5xx.
    expect(
      [...statuses.entries()].filter(([status]) => status !== 200 && status !== 404),
      server?.errors(),
    ).toEqual([]);
    expect(statuses.get(200) ?? 0).toBeGreaterThan(0);
    expect(server?.errors()).toBe('');
    await alive();
  });

  it("serves a rebuild's new redirect and new embed domain without a restart", async () => {
    const before = await rawGet(url(''), '/docs/moved/');
    expect(before.status).toBe(404);
    expect(before.headers['content-security-policy']).not.toContain('https://wistia.com');
    await writeFile(
      path.join(root, 'content/_site.yaml'),
      siteYaml('redirects:\n  /moved/: /p1/\nembeds: [youtube.com, wistia.com]\n'),
    );
    await buildOrThrow(root);
    const after = await rawGet(url(''), '/docs/moved/?from=old');
    expect([after.status, after.headers['location']]).toEqual([301, '/docs/p1/?from=old']);
    expect(after.headers['content-security-policy']).toContain(
      'frame-src https://youtube.com https://*.youtube.com https://wistia.com https://*.wistia.com;',
    );
    const page = await rawGet(url(''), '/docs/p1/');
    expect(page.headers['content-security-policy']).toContain('https://wistia.com');
    await alive();
  });
});

describe('npm run preview of a site built with base /', () => {
  let root = '';
  let server: PreviewProcess | undefined;
  let origin = '';

  beforeAll(async () => {
    root = await makeTree({
      // What `npm run import` writes for a VuePress site: its default base, and no siteUrl.
      '_site.yaml': 'title: Imported\nbase: /\n',
      'README.md': '# Home\n\nSee the [limits](/limits/).\n',
      'limits.md': '# Limits\n\nThe limits.\n',
    });
    await buildOrThrow(root);
    // A folder whose name is not ASCII, as a writer's files may have.
    const dist = path.join(root, 'dist');
    await mkdir(path.join(dist, 'café'));
    await cp(path.join(dist, 'limits/index.html'), path.join(dist, 'café/index.html'));
    // Two files whose names differ by a percent sign, decoded or not.
    await writeFile(path.join(dist, 'a%41.txt'), 'the file with a percent sign');
    await writeFile(path.join(dist, 'aA.txt'), 'the other file');
    server = await startPreviewProcess(dist);
    origin = new URL(server.url).origin;
  });
  afterAll(async () => {
    await server?.stop();
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('serves it at / with its stylesheet, as it was built', async () => {
    expect(server?.url).toBe(`${origin}/`);
    const home = await rawGet(origin, '/');
    expect(home.status).toBe(200);
    const stylesheet = /<link rel="stylesheet" href="(\/assets\/css\/[^"]+\.css)"/.exec(home.body)?.[1];
    expect(stylesheet).toBeDefined();
    const css = await rawGet(origin, stylesheet ?? '');
    expect([css.status, css.headers['content-type']]).toEqual([200, 'text/css; charset=utf-8']);
    const limits = await rawGet(origin, '/limits/');
    expect(limits.status).toBe(200);
    expect(limits.body).toContain('The limits.');
    expect((await rawGet(origin, '/limits')).headers['location']).toBe('/limits/');
    expect((await rawGet(origin, '/docs/limits/')).status).toBe(404);
  });

  it('points no canonical link at localhost when the site has no siteUrl', async () => {
    const limits = await rawGet(origin, '/limits/');
    expect(limits.body).not.toContain('rel="canonical"');
    expect(limits.body).not.toContain('localhost');
    expect(readFileSync(path.join(root, 'dist/index.html'), 'utf8')).not.toContain('rel="canonical"');
  });

  it('serves a file whose name has a percent sign as the file it names', async () => {
    expect((await rawGet(origin, '/a%2541.txt')).body).toBe('the file with a percent sign');
    expect((await rawGet(origin, '/aA.txt')).body).toBe('the other file');
  });

  it('redirects a non-ASCII folder asked for without its slash, with the path percent-encoded', async () => {
    const answer = await rawGet(origin, '/caf%C3%A9');
    expect([answer.status, answer.headers['location']]).toEqual([301, '/caf%C3%A9/']);
    expect((await rawGet(origin, '/caf%C3%A9/')).status).toBe(200);
    expect(server?.exitCode(), server?.errors()).toBeUndefined();
  });
});
