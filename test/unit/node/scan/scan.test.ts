import { mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { scanContent } from '../../../../src/node/scan/scan';
import { DiagnosticList, formatDiagnostic } from '../../../../src/node/diagnostics';

/** A content folder with these files (each a small page) inside a fresh temporary folder. */
async function tree(names: string[]): Promise<{ root: string; content: string }> {
  const root = await mkdtemp(path.join(tmpdir(), 'docs-scan-'));
  const content = path.join(root, 'content');
  for (const name of ['README.md', ...names]) {
    await mkdir(path.dirname(path.join(content, name)), { recursive: true });
    await writeFile(path.join(content, name), `# ${name}\n`);
  }
  return { root, content };
}

async function scan(content: string) {
  const diagnostics = new DiagnosticList();
  const files = await scanContent(content, diagnostics);
  return { pages: files.map((f) => f.relativePath), messages: diagnostics.sorted().map(formatDiagnostic) };
}

describe('the content scan', () => {
  it('refuses a page linked from outside the content folder, and the pages of a folder linked from there', async () => {
    const { root, content } = await tree(['inside.md']);
    await writeFile(path.join(root, 'secret.md'), 'root:x:0:0:root:/root:/bin/bash\n');
    await mkdir(path.join(root, 'elsewhere'));
    await writeFile(path.join(root, 'elsewhere/page.md'), '# Elsewhere\n');
    await symlink(path.join(root, 'secret.md'), path.join(content, 'passwd.md'));
    await symlink(path.join(root, 'elsewhere'), path.join(content, 'linked'));
    await symlink(path.join(content, 'inside.md'), path.join(content, 'alias.md'));
    const { pages, messages } = await scan(content);
    expect(messages).toEqual([
      'linked/page.md:1:1 page links to a file outside the content folder: it is not published',
      'passwd.md:1:1 page links to a file outside the content folder: it is not published',
    ]);
    // A link that stays inside the folder is a page like any other.
    expect(pages).toEqual(['README.md', 'alias.md', 'inside.md']);
  });

  it('refuses file names that cannot be part of a URL, and keeps those that only need encoding', async () => {
    const { content } = await tree([
      'q?a.md',
      'c#.md',
      'back\\slash.md',
      '%2e%2e.md',
      '50%/off.md',
      'q&a.md',
      'my page.md',
    ]);
    const { pages, messages } = await scan(content);
    expect(messages).toEqual([
      `%2e%2e.md:1:1 the file name has "%", which cannot be part of a page's URL: rename it`,
      `50%/off.md:1:1 the file name has "%", which cannot be part of a page's URL: rename it`,
      `back\\slash.md:1:1 the file name has "\\", which cannot be part of a page's URL: rename it`,
      `c#.md:1:1 the file name has "#", which cannot be part of a page's URL: rename it`,
      `q?a.md:1:1 the file name has "?", which cannot be part of a page's URL: rename it`,
    ]);
    expect(pages).toEqual(['README.md', 'my page.md', 'q&a.md']);
  });

  it('refuses a page whose output would land on a file the site writes', async () => {
    const { content } = await tree([
      'version.json.md',
      'favicon.svg.md',
      'sitemap.xml.md',
      'llms.txt/README.md',
      'guide/README.md',
      'guide.md.md',
      'api/README.md',
      'api.md/keys.md',
      'index.md.md',
    ]);
    const { pages, messages } = await scan(content);
    expect(messages).toEqual([
      'api.md/keys.md:1:1 route /api.md/keys/ needs a folder api.md/ where the site writes the markdown twin api.md of api/README.md: rename the page',
      "favicon.svg.md:1:1 route /favicon.svg/ needs a folder favicon.svg/ where the site writes the site's own file favicon.svg: rename the page",
      'guide.md.md:1:1 route /guide.md/ needs a folder guide.md/ where the site writes the markdown twin guide.md of guide/README.md: rename the page',
      'index.md.md:1:1 route /index.md/ needs a folder index.md/ where the site writes the markdown twin index.md of README.md: rename the page',
      "llms.txt/README.md:1:1 route /llms.txt/ needs a folder llms.txt/ where the site writes the site's own file llms.txt: rename the page",
      "sitemap.xml.md:1:1 route /sitemap.xml/ needs a folder sitemap.xml/ where the site writes the site's own file sitemap.xml: rename the page",
      "version.json.md:1:1 route /version.json/ needs a folder version.json/ where the site writes the site's own file version.json: rename the page",
    ]);
    expect(pages).toEqual(['README.md', 'api/README.md', 'guide/README.md']);
  });
});
