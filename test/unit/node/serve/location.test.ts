import { describe, expect, it } from 'vitest';
import { locationHeader } from '../../../../src/node/serve/location';

describe('the Location of a redirect', () => {
  it.each([
    ['/docs/limits/', '', undefined, '/docs/limits/'],
    ['/docs/€/', '', undefined, '/docs/%E2%82%AC/'],
    ['/docs/café', '?q=1', undefined, '/docs/caf%C3%A9?q=1'],
    ['/docs/a?b/', '', undefined, '/docs/a%3Fb/'],
    ['/docs/a#b/', '', undefined, '/docs/a%23b/'],
    ['/docs/100%/', '', undefined, '/docs/100%25/'],
    ['/docs/a b/', '', undefined, '/docs/a%20b/'],
    ['/docs/workflows/', '?from=old', 'triggers', '/docs/workflows/?from=old#triggers'],
    ['/docs/workflows/', '', 'déclencheurs', '/docs/workflows/#d%C3%A9clencheurs'],
    // The query string as Node hands it over: one character per byte of the request line.
    ['/docs/x/', '?q=\u00e9\u0001', undefined, '/docs/x/?q=%E9%01'],
  ])('for %j, %j and #%s is %s', (pathname, search, hash, expected) => {
    const location = locationHeader(pathname, search, hash);
    expect(location).toBe(expected);
    expect(location).toMatch(/^[\x21-\x7e]+$/);
  });
});
