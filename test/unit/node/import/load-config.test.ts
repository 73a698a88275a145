import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importSite } from '../../../../src/node/import/import-site';
import { projectRoot } from '../../../helpers/tree';

/** An old VuePress tree with one page and the given config; returns the tree's folder. */
async function oldTree(config: string): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), 'docs-config-'));
  const source = path.join(root, 'old');
  await mkdir(path.join(source, '.vuepress'), { recursive: true });
  await writeFile(path.join(source, 'README.md'), '# Home\n');
  await writeFile(path.join(source, '.vuepress/config.js'), config);
  return source;
}

const out = (source: string) => path.join(path.dirname(source), 'content');

describe("an old site's config that does not give its configuration", () => {
  it.each([
    ['exits with 0', 'process.exit(0);\nmodule.exports = { title: "Old" };\n', 'it called process.exit(0)'],
    ['exits with 3', 'process.exit(3);\n', 'it called process.exit(3)'],
    [
      'exits later, from a timer',
      'setTimeout(() => process.exit(4), 10);\nmodule.exports = () => new Promise(() => setInterval(() => {}, 1000));\n',
      'it called process.exit(4)',
    ],
    ['throws', 'throw new Error("theme not found");\n', 'theme not found'],
    [
      'exports a promise that never settles',
      'module.exports = new Promise(() => {});\n',
      "it ended without giving its configuration: what it exports (a promise, or a function's) never settled",
    ],
    ['never ends', 'while (true) {}\n', 'it was still running after 1 s, and was stopped'],
    [
      'waits on a timer forever',
      'module.exports = new Promise(() => setInterval(() => {}, 1000));\n',
      'it was still running after 1 s, and was stopped',
    ],
  ])('is named with what it did when it %s, and nothing is written', async (_what, config, said) => {
    const source = await oldTree(config);
    // A second for the configs that never end; the others are given longer, so that on a busy machine the
    // config's process has started and done what it does before the limit, whatever the limit's words.
    const configTimeLimitMs = said.startsWith('it was still running') ? 1000 : 20_000;
    await expect(importSite({ source, out: out(source), configTimeLimitMs })).rejects.toThrow(
      `${path.join(source, '.vuepress/config.js')} could not be run: ${said}`,
    );
    expect(existsSync(out(source))).toBe(false);
  });

  it('still runs a config that works, with its functions left out of the data', async () => {
    const source = await oldTree(
      'const shared = { text: "Home", link: "/" };\n' +
        'const cyclic = { name: "loop" }; cyclic.self = cyclic;\n' +
        'module.exports = async () => ({ title: "Old", plugins: [function plugin() {}], ' +
        'chainWebpack() {}, cyclic, themeConfig: { nav: [shared, shared] } });\n',
    );
    const result = await importSite({ source, out: out(source), configTimeLimitMs: 5000 });
    expect(result.pages).toBe(1);
    expect(result.report.entries.map((e) => e.message)).toContain(
      'plugin "plugins[0]" does not run on this site: what it added to pages is not carried over',
    );
  });

  it('runs a config as its tool did: a function of the build, each file with its own __dirname', async () => {
    const source = await oldTree(
      "const { defineConfig } = require('vuepress/config');\n" +
        "module.exports = defineConfig((ctx) => ({ title: ctx.isProd ? 'Published' : 'Draft', " +
        "themeConfig: { sidebar: require('./config/sidebar') } }));\n",
    );
    await mkdir(path.join(source, '.vuepress/config'));
    await writeFile(
      path.join(source, '.vuepress/config/sidebar.js'),
      "const fs = require('fs');\nconst path = require('path');\n" +
        "module.exports = fs.readdirSync(path.resolve(__dirname, '../../guide')).map((name) => '/guide/' + name);\n",
    );
    await mkdir(path.join(source, 'guide'));
    await writeFile(path.join(source, 'guide/setup.md'), '# Setup\n');
    await importSite({ source, out: out(source), configTimeLimitMs: 5000 });
    const site = readFileSync(path.join(out(source), '_site.yaml'), 'utf8');
    expect(site).toContain('title: Published\n');
    expect(site).toContain('      - /guide/setup/\n');
  });

  it('ends npm run import with the message and status 1, not silently with the status the config chose', async () => {
    const source = await oldTree('process.exit(0);\n');
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'import.ts', source, '--out', out(source)], {
      cwd: projectRoot,
      encoding: 'utf8',
    });
    expect([run.status, run.stderr.trim()]).toEqual([
      1,
      `import: ${path.join(source, '.vuepress/config.js')} could not be run: it called process.exit(0) before giving its configuration`,
    ]);
    expect(run.stdout).toBe('');
  }, 30_000);
});
