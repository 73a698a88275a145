import { describe, expect, it } from 'vitest';
import { canonicalUrl, headFor } from '../../../src/shared/head';
import type { PageMeta, SiteSettings } from '../../../src/shared/types';

const site = (siteUrl: string, base = '/docs/') =>
  ({ title: 'Docs', description: '', lang: 'en', siteUrl, base, versions: [] }) as SiteSettings;

describe('the canonical link', () => {
  it('is the page at the published address, under the base', () => {
    expect(canonicalUrl(site('https://pipedream.com'), '/limits/')).toBe('https://pipedream.com/docs/limits/');
    expect(canonicalUrl(site('https://docs.example.com/', '/'), '/limits/')).toBe('https://docs.example.com/limits/');
  });

  it.each([
    'http://localhost',
    'http://localhost:8080/',
    'http://docs.localhost',
    'http://127.0.0.1:4173',
    'http://[::1]/',
  ])('is left out for %s, which only means the reader’s own machine', (siteUrl) => {
    expect(canonicalUrl(site(siteUrl), '/limits/')).toBeUndefined();
    const page = { path: '/limits/', title: 'Limits', description: '', frontmatter: {} } as unknown as PageMeta;
    expect(headFor(site(siteUrl), page)).not.toHaveProperty('canonical');
  });

  it('is kept for a host that merely contains the word', () => {
    expect(canonicalUrl(site('https://localhost.example.com'), '/')).toBe('https://localhost.example.com/docs/');
  });
});

describe('an older version built with the site', () => {
  const versions = [
    { text: 'v2', link: '/docs/', current: true, built: true },
    { text: 'v1', link: '/docs/v1/', built: true },
  ] as const;
  const page = { path: '/limits/', title: 'Limits', description: '', frontmatter: {} } as unknown as PageMeta;

  it('keeps its canonical link and asks search engines to leave it out', () => {
    const v1 = { ...site('https://pipedream.com', '/docs/v1/'), versions: [...versions] };
    expect(headFor(v1, page)).toMatchObject({ canonical: 'https://pipedream.com/docs/v1/limits/', noindex: true });
    const v2 = { ...site('https://pipedream.com'), versions: [...versions] };
    expect(headFor(v2, page)).not.toHaveProperty('noindex');
  });

  it('is indexed when it is listed', () => {
    const listed = [versions[0], { ...versions[1], listed: true as const }];
    expect(headFor({ ...site('https://pipedream.com', '/docs/v1/'), versions: listed }, page)).not.toHaveProperty(
      'noindex',
    );
  });
});
