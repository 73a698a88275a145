import { describe, expect, it } from 'vitest';
import { canonicalRoute, keyFromRoute, routeFromRelativePath, withBase, withoutBase } from '../../../src/shared/paths';

describe('routeFromRelativePath', () => {
  it.each([
    ['README.md', '/'],
    ['index.md', '/'],
    ['api/auth/README.md', '/api/auth/'],
    ['api/auth/index.md', '/api/auth/'],
    ['api/auth.md', '/api/auth/'],
    ['limits.md', '/limits/'],
  ])('%s → %s', (file, route) => expect(routeFromRelativePath(file)).toBe(route));
});

describe('keyFromRoute', () => {
  it('is file-name safe and stable', () => {
    expect(keyFromRoute('/')).toBe('index');
    expect(keyFromRoute('/api/auth/')).toBe('api.auth');
    expect(keyFromRoute('/Spaces and ünïcode/')).toBe('spaces-and-n-code');
  });
});

describe('canonicalRoute', () => {
  it.each([
    ['/x', '/x/'],
    ['/x/', '/x/'],
    ['/x/index.html', '/x/'],
    ['/x.html', '/x/'],
    ['/x/README.md', '/x/'],
    ['x.md', '/x/'],
    ['/a//b', '/a/b/'],
  ])('%s → %s', (input, route) => expect(canonicalRoute(input)).toBe(route));
});

describe('base handling', () => {
  it('joins and strips the base', () => {
    expect(withBase('/docs/', '/api/')).toBe('/docs/api/');
    expect(withoutBase('/docs/', '/docs/api/')).toBe('/api/');
    expect(withoutBase('/docs/', '/docs')).toBe('/');
    expect(withoutBase('/docs/', '/other/')).toBeUndefined();
  });
});
