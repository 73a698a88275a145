import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTree, makeTree, messages } from '../../../helpers/tree';

/**
 * The markdown twin of a page is served beside its folder (`/docs/guide/limits.md`) and gathered into
 * `llms-full.txt`: its links must lead where the page's do, with the site's base, not to the domain's root.
 */
describe("a page's markdown twin", () => {
  let root: string;
  const read = (file: string) => readFileSync(path.join(root, 'dist', file), 'utf8');

  beforeAll(async () => {
    root = await makeTree({
      '_site.yaml': 'title: Docs\nbase: /docs/\nsiteUrl: https://example.com\nconstants:\n  LIMIT: 6MB\n',
      'README.md': '# Home\n',
      'errors.md': '# Errors\n\n## Timeouts\n\nText.\n',
      'guide/limits.md': [
        '# Limits',
        '',
        'See [errors](/errors/), [timeouts](../errors.md#timeouts "On timeouts"), [home](../../) and [up to {{ LIMIT }}](#limits).',
        '',
        '![Diagram](./diagram.png)',
        '',
        'Off the site: [the status page](https://status.example.com/).',
        '',
        '<p><a href="/errors/">errors, in HTML</a></p>',
        '',
        '```md',
        '[as written](/errors/)',
        '```',
        '',
        'Inline: `[as written](/errors/)`.',
        '',
      ].join('\n'),
      'guide/diagram.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47]),
    });
    const built = await buildTree(root);
    expect(messages(built)).toEqual([]);
  }, 60_000);

  it('writes links and images to this site with the base, and leaves code and other sites as written', () => {
    const twin = read('guide/limits.md');
    const image = /src="(\/docs\/assets\/img\/diagram\.[0-9a-f]{8}\.png)"/.exec(read('guide/limits/index.html'))?.[1];
    expect(image).toBeDefined();
    expect(twin).toBe(
      [
        '# Limits',
        '',
        'See [errors](/docs/errors/), [timeouts](/docs/errors/#timeouts "On timeouts"), [home](/docs/) and [up to 6MB](#limits).',
        '',
        `![Diagram](${image})`,
        '',
        'Off the site: [the status page](https://status.example.com/).',
        '',
        '<p><a href="/docs/errors/">errors, in HTML</a></p>',
        '',
        '```md',
        '[as written](/errors/)',
        '```',
        '',
        'Inline: `[as written](/errors/)`.',
        '',
      ].join('\n'),
    );
  });

  it('is in llms-full.txt as served', () => {
    const full = read('llms-full.txt');
    expect(full).toContain(read('guide/limits.md').trim());
    expect(full).toContain('See [errors](/docs/errors/), [timeouts](/docs/errors/#timeouts "On timeouts")');
  });
});
