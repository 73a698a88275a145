import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { importSite } from '../../../../src/node/import/import-site';

/** Writes `files` (relative path → text) under a new temp folder and returns it. */
async function tree(files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), 'docs-load-config-'));
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), text);
  }
  return root;
}

/**
 * The shape of the VuePress 1 docs' own configuration: a TypeScript config wrapped in `defineConfig` from
 * the `vuepress` package (not installed where the import runs), exported as a function of VuePress's
 * context, whose sidebar module lists a folder relative to its own `__dirname`.
 */
describe('loading a VuePress config written as the VuePress docs write theirs', () => {
  it('runs the function, and gives each imported file its own __dirname', async () => {
    const source = await tree({
      '.vuepress/config.ts': `import { defineConfig } from 'vuepress/config'
import { guideSidebar } from './config/sidebar'
export default defineConfig(ctx => ({
  title: ctx.isProd ? 'Built docs' : 'Dev docs',
  themeConfig: { sidebar: { '/guide/': guideSidebar() } },
}))
`,
      '.vuepress/config/sidebar.ts': `import fs from 'fs'
import path from 'path'
const pages = fs.readdirSync(path.resolve(__dirname, '../../guide')).map(f => f.slice(0, -3)).sort()
export function guideSidebar () {
  return [{ title: 'Guide', children: pages }]
}
`,
      'guide/alpha.md': '# Alpha\n',
      'guide/beta.md': '# Beta\n',
    });
    const out = path.join(await mkdtemp(path.join(tmpdir(), 'docs-load-config-out-')), 'content');
    const result = await importSite({ source, out });
    expect(result.pages).toBe(2);
    const site = parse(await readFile(path.join(out, '_site.yaml'), 'utf8')) as {
      title: string;
      sidebar?: { text: string; items: string[] }[];
    };
    expect(site.title).toBe('Built docs');
    expect(site.sidebar).toEqual([{ text: 'Guide', items: ['/guide/alpha/', '/guide/beta/'] }]);
  });
});
