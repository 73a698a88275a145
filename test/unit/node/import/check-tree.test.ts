import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { importSite, type ImportResult } from '../../../../src/node/import/import-site';
import { buildTree, messages, projectRoot } from '../../../helpers/tree';

/**
 * An old VuePress site whose pages link the ways real ones do: relative links written for the old
 * `.html` addresses, links to a heading with a badge, a component whose HTML links to its own heading,
 * and one link to a section the old site had already removed.
 */
const OLD_SITE: Record<string, string> = {
  '.vuepress/config.js': "module.exports = { title: 'Old Docs', themeConfig: { sidebar: 'auto' } };\n",
  '.vuepress/components/StillHaveQuestions.vue':
    '<template>\n  <h2 id="still-have-questions"><a href="#still-have-questions">Still have questions?</a></h2>\n</template>\n',
  'README.md': '# Home\n\nStart with [the setup](guide/setup.html).\n',
  'guide/README.md': '# Guide\n\nSee [setup](setup.html).\n',
  'guide/setup.md':
    '# Setup\n\nFirst [install](install.html), then read [the API](../api/) and [its layout](../api/#globallayout).\n\n' +
    'The [options](./install.md#removed-section) are gone.\n\n<StillHaveQuestions/>\n',
  'guide/install.md': '# Install\n\nBack to [setup](./setup.html#setup).\n',
  'api/README.md': '# API\n\n## globalLayout <Badge text="beta"/>\n\nThe layout.\n',
};

async function oldSite(): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), 'docs-import-links-'));
  for (const [name, text] of Object.entries(OLD_SITE)) {
    const file = path.join(root, 'old', name);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, text);
  }
  return root;
}

const BROKEN =
  'guide/setup.md:5:5 broken anchor "./install.md#removed-section": /guide/install/ has no heading #removed-section';

describe('npm run import, on links the old pages had', () => {
  let root: string;
  let imported: ImportResult;

  beforeAll(async () => {
    root = await oldSite();
    imported = await importSite({ source: path.join(root, 'old'), out: path.join(root, 'content') });
  }, 60_000);

  it('lists the links already broken in the old site, as the strict build then reports them, and nothing else', async () => {
    const report = readFileSync(path.join(root, 'content/_import-report.md'), 'utf8').split('\n');
    expect(report).toContain('## Already broken in the old site');
    expect(report).toContain(
      '- `guide/setup.md:5:5` broken anchor "./install.md#removed-section": /guide/install/ has no heading #removed-section',
    );
    expect(imported.report.count('broken')).toBe(1);
    const built = await buildTree(root);
    expect(messages(built)).toEqual([BROKEN]);
    expect((await buildTree(root, { strict: false })).ok).toBe(true);
  }, 60_000);

  it('keeps relative links written for the old .html addresses, the badge heading ids and a component link working', () => {
    const setup = readFileSync(path.join(root, 'content/guide/setup.md'), 'utf8');
    expect(setup).toContain('[install](../install.html), then read [the API](../../api/)');
    expect(readFileSync(path.join(root, 'content/guide/README.md'), 'utf8')).toContain('[setup](setup.html)');
    expect(readFileSync(path.join(root, 'content/api/README.md'), 'utf8')).toContain(
      '## globalLayout <mark id="globallayout">beta</mark>',
    );
    expect(imported.report.entries.map((e) => `${e.file}:${e.line} ${e.message}`)).toContain(
      "guide/setup.md:3 3 relative links were written for the page's old address, /guide/setup.html: they now start from /guide/setup/",
    );
  });

  it('says so on the terminal, with the command that builds meanwhile', async () => {
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'import.ts', path.join(root, 'old'), '--out', path.join(root, 'again')],
      { cwd: projectRoot, encoding: 'utf8' },
    );
    expect(run.status).toBe(0);
    const lines = run.stderr.split('\n');
    expect(lines.slice(lines.indexOf(BROKEN))).toEqual([
      BROKEN,
      '1 link was already broken in the old site: fix it, or build with `--no-strict` meanwhile',
      '',
    ]);
  }, 60_000);
});
