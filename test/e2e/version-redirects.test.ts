import { describe, expect, it } from 'vitest';
import { CURRENT_AND_V1 } from '../helpers/versions';
import { useServedTree } from './preview';

/**
 * An older version's moved pages answer 301 at its route, as the current version's do, from the site's one
 * redirect table: the server of the test project (the preview server, or nginx with deploy/nginx.conf,
 * which includes only the top `_redirects.nginx`) is started once and never told of the version.
 */
const site = useServedTree(
  {
    '_site.yaml': `title: Versioned Docs\n${CURRENT_AND_V1}redirects:\n  /pricing/: /plans/\n`,
    'README.md': '# Home v2\n\nSee the [plans](plans.md).\n',
    'plans.md': '# Plans\n\nWhat each plan costs.\n',
    '../v1/_site.yaml': 'title: Old\nredirects:\n  /setup/: /guide/\n',
    '../v1/README.md': '# Home v1\n\nSee the [guide](guide.md).\n',
    '../v1/guide.md': '# Guide v1\n\nThe old guide.\n',
    // A page of v1 that only redirects: a redirect of v1's, as one in its _site.yaml is.
    '../v1/start.md': '<meta http-equiv="refresh" content="0; url=/guide/">\n',
  },
  { warnings: true },
);

/** The status and Location of a request, redirects not followed. */
async function answer(route: string): Promise<[number, string | null]> {
  const response = await fetch(`${site.url}${route}`, { redirect: 'manual' });
  await response.body?.cancel();
  return [response.status, response.headers.get('location')];
}

describe('redirects of a version built with the site', () => {
  it.each([
    ['/docs/v1/setup/', '/docs/v1/guide/'],
    ['/docs/v1/setup', '/docs/v1/guide/'],
    ['/docs/v1/start/', '/docs/v1/guide/'],
    ['/docs/pricing/', '/docs/plans/'],
  ])('%s answers 301 to %s', async (from, to) => {
    expect(await answer(from)).toEqual([301, to]);
  });

  it("keep the query string, and leave the version's pages and the current one's alone", async () => {
    expect(await answer('/docs/v1/setup/?q=1')).toEqual([301, '/docs/v1/guide/?q=1']);
    expect(await answer('/docs/v1/guide/')).toEqual([200, null]);
    // v2 has no /setup/: only v1's moved page is redirected.
    expect((await answer('/docs/setup/'))[0]).toBe(404);
  });
});
