import { describe, expect, it } from 'vitest';
import { canonicalUrl, headFor } from '../../../src/shared/head';
import type { PageMeta, SiteSettings } from '../../../src/shared/types';

const site = (siteUrl: string, base = '/docs/') =>
  ({ title: 'Docs', description: '', lang: 'en', siteUrl, base }) as SiteSettings;

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
