import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { canonicalRoute } from '../../../src/shared/paths';
import type { Manifest } from '../../../src/shared/types';
import { sharedAvailable, sharedDir, specDir, specRedirects, specRoutes } from '../../helpers/spec';
import { buildTree, makeTree, projectRoot } from '../../helpers/tree';

/** Pages the content issue calls core: at least 500 words each. */
const CORE = [
  /^\/$/, /^\/quickstart\//, /^\/code\//, /^\/components\//, /^\/api\//, /^\/destinations\//, /^\/sources\//,
  /^\/limits\/$/, /^\/pricing\/$/, /^\/errors\/$/, /^\/orgs\/$/, /^\/privacy-and-security\/$/,
];
const isCore = (route: string) =>
  CORE.some((r) => r.test(route)) || (route.startsWith('/workflows/') && !route.startsWith('/workflows/examples/'));

/** SPEC §9 (and the three API bases of §7) as the words a reader must find on /limits/ or /pricing/. */
const SPEC_CONSTANTS: [string, string][] = [
  ['HTTP payload limit', '512KB'], ['Default memory', '256MB'], ['Absolute max memory', '10GB'],
  ['Email payload limit', '30MB'], ['Inspector events', '100'], ['Inspector retention days', '30'],
  ['Function payload limit', '6MB'], ['Daily invocations', '333'], ['Free org daily invocations', '66'],
  ['Price per invocation', '0.0002'], ['Free monthly invocations', '10,000'], ['Pro monthly invocations', '20,000'],
  ['Team monthly invocations', '20,000'], ['Enterprise monthly invocations', '100,000'], ['Team member limit', '5'],
  ['Pro and team monthly price', '$19'], ['Default queue size', '100'], ['Maximum queue size', '10,000'],
  ['Node version', '14'], ['Python version', '3.8'], ['Go version', '1.17.1'], ['Props size limit', '64KB'],
  ['Service database size limit', '60KB'], ['/tmp size limit', '512MB'],
];

let manifest: Manifest;
let root: string;

/** Reader-visible words of a fragment: markup and code blocks removed. */
function words(html: string): number {
  const text = html
    .replace(/<pre[\s\S]*?<\/pre>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&[a-z#0-9]+;/g, ' ');
  return text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
}

beforeAll(async () => {
  root = await makeTree({});
  const result = await buildTree(root, { contentDir: path.join(projectRoot, 'content') });
  expect(result.diagnostics).toEqual([]);
  manifest = JSON.parse(readFileSync(path.join(root, 'manifest/manifest.json'), 'utf8')) as Manifest;
}, 120_000);

describe('content', () => {
  it('has every route of the spec, each with a description and enough words', () => {
    const byRoute = new Map(manifest.pages.map((p) => [p.path, p]));
    const problems: string[] = [];
    for (const route of specRoutes()) {
      const page = byRoute.get(route);
      if (!page) {
        problems.push(`${route}: missing`);
        continue;
      }
      if (!page.frontmatter.description) problems.push(`${route}: no description in the frontmatter`);
      const html = readFileSync(path.join(root, 'manifest/pages', `${page.key}.html`), 'utf8');
      const minimum = isCore(route) ? 500 : 150;
      const count = words(html);
      if (count < minimum) problems.push(`${route}: ${count} words, needs ${minimum}`);
    }
    expect(problems).toEqual([]);
  });

  it('reaches every page from the sidebar', () => {
    const linked = new Set(manifest.sidebar.flatMap((g) => g.items.map((i) => i.link)));
    expect(manifest.pages.filter((p) => !linked.has(p.path)).map((p) => p.path)).toEqual([]);
    expect(manifest.sidebar.map((g) => g.text)).toEqual(
      expect.arrayContaining(['Workflows', 'Reference', 'Privacy and Security', 'Pricing and Limits', 'Organizations']),
    );
  });

  it('configures every redirect of the spec to an existing page', () => {
    for (const [from, to] of specRedirects()) {
      const target = manifest.redirects[canonicalRoute(from)];
      expect(target, from).toBeDefined();
      if (to !== '*') expect(target, from).toBe(canonicalRoute(to));
      expect(manifest.pages.some((p) => p.path === target), `${from} → ${target}`).toBe(true);
    }
  });

  it('states every constant of SPEC §9 on /limits/ or /pricing/', () => {
    const text = ['limits', 'pricing']
      .map((key) => readFileSync(path.join(root, 'manifest/pages', `${key}.html`), 'utf8'))
      .join(' ')
      .replace(/<[^>]+>/g, ' ');
    const missing = SPEC_CONSTANTS.filter(([, value]) => !new RegExp(`(^|[^\\d.,])${value.replace(/[$.]/g, '\\$&')}(?![\\d])`).test(text));
    expect(missing).toEqual([]);
  });

  it('keeps the site configuration constants equal to SPEC §9', () => {
    const config = readFileSync(path.join(projectRoot, 'content/_site.yaml'), 'utf8');
    for (const [name, value] of SPEC_CONSTANTS) expect(config, name).toContain(value);
  });

  it.runIf(sharedAvailable)('uses the same route and redirect lists as ../shared', () => {
    for (const file of ['routes.txt', 'redirects.txt']) {
      expect(readFileSync(path.join(specDir, file), 'utf8')).toBe(readFileSync(path.join(sharedDir, file), 'utf8'));
    }
  });
});
