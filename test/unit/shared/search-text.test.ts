import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import {
  decodePostings,
  encodePostings,
  indexTerms,
  queryTerms,
  routeWords,
  simpleSlug,
  stem,
} from '../../../src/shared/search-text';
import { Highlight, matchRanges } from '../../../src/client/search/Highlight';

describe('index terms', () => {
  it('stems plurals the same way for text and queries', () => {
    expect(['limits', 'invocations', 'variables', 'queries', 'webhooks', 'apis'].map(stem)).toEqual([
      'limit',
      'invocation',
      'variable',
      'query',
      'webhook',
      'api',
    ]);
    expect(['status', 'process', 'sse', 'gas'].map(stem)).toEqual(['status', 'process', 'sse', 'gas']);
  });

  it('yields the parts and the joined form of compound words', () => {
    expect(indexTerms('Node.js')).toEqual(['node', 'js', 'nodej']); // stemmed like a plural, as queries are
    expect(indexTerms('chunkSize')).toEqual(['chunksize', 'chunk', 'size']);
    expect(indexTerms('chunk_size')).toEqual(['chunk', 'size', 'chunksize']);
    expect(indexTerms('$auth')).toEqual(['auth']);
    expect(indexTerms('Last-Event-ID')).toEqual(['last', 'event', 'id', 'lasteventid']);
    expect(indexTerms('JSONParser')).toEqual(['jsonparser', 'json', 'parser']);
  });

  it('folds accents and drops single letters and long numbers', () => {
    expect(indexTerms('Café Ångström naïve')).toEqual(['cafe', 'angstrom', 'naive']);
    expect(indexTerms('a 42 1234567 x9')).toEqual(['42', 'x9']);
  });

  it('marks stop words in queries and keeps what was typed for highlighting', () => {
    expect(queryTerms('How to set Limits')).toEqual([
      { word: 'how', term: 'how', stop: true },
      { word: 'to', term: 'to', stop: true },
      { word: 'set', term: 'set', stop: false },
      { word: 'limits', term: 'limit', stop: false },
    ]);
    expect(queryTerms('<script>(.*)</script>')).toEqual([
      { word: 'script', term: 'script', stop: false },
      { word: 'script', term: 'script', stop: false },
    ]);
  });

  it('reads the page name and folders from a route', () => {
    expect(routeWords('/orgs/sso/okta/')).toEqual({ name: 'okta', folders: 'orgs sso' });
    expect(routeWords('/')).toEqual({ name: '', folders: '' });
    expect(routeWords('/workflows/examples/cron-job/')).toEqual({ name: 'cron job', folders: 'workflows examples' });
  });

  it('makes GitHub-style ids of plain headings', () => {
    expect(simpleSlug('Rate Limit Exceeded')).toBe('rate-limit-exceeded');
    expect(simpleSlug('Step 1: Create the source')).toBe('step-1-create-the-source');
  });
});

describe('posting lists', () => {
  it('round-trip ascending ids of any size', () => {
    const lists = [[], [0], [0, 1, 2, 3], [5, 31, 32, 33, 1023, 1024, 1025, 40000, 1_000_000], [7, 8, 300, 301]];
    for (const ids of lists) expect(decodePostings(encodePostings(ids))).toEqual(ids);
  });

  it('are JSON-safe and use no separator', () => {
    const text = encodePostings([1, 40, 5000, 5001]);
    expect(JSON.stringify(text)).toBe(`"${text}"`);
    expect(text).not.toMatch(/[\s,]/);
  });

  it('refuse a character that is not a digit', () => {
    expect(() => decodePostings('1 2')).toThrow();
  });
});

describe('Highlight', () => {
  it('marks query words where a word starts, ignoring case and accents', () => {
    expect(matchRanges('Rate limits', ['limit'])).toEqual([[5, 10]]);
    expect(matchRanges('unlimited', ['limit'])).toEqual([]);
    expect(matchRanges('chunkSize', ['size'])).toEqual([[5, 9]]);
    expect(matchRanges('Café au lait', ['cafe'])).toEqual([[0, 4]]);
    expect(matchRanges('Zoë and zoe', ['zoe'])).toEqual([
      [0, 3],
      [8, 11],
    ]);
  });

  it('prefers the longer of two terms at one place and never overlaps', () => {
    expect(matchRanges('webhooks and web', ['web', 'webhook'])).toEqual([
      [0, 7],
      [13, 16],
    ]);
  });

  it('renders text and queries as text, never as HTML', () => {
    const html = renderToStaticMarkup(
      createElement(Highlight, { text: '<img src=x onerror=alert(1)> image', terms: ['img'] }),
    );
    expect(html).toBe('&lt;<mark>img</mark> src=x onerror=alert(1)&gt; image');
  });
});
