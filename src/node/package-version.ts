import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The installed version of a package, for the identity of what the build caches from its output. Its
 * package.json is read from the `node_modules` folders Node would look in from here, as many packages'
 * exports leave it out (and some have no entry `require` can resolve).
 */
export function packageVersion(name: string): string {
  const start = path.dirname(fileURLToPath(import.meta.url));
  for (let dir = start; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    try {
      const file = path.join(dir, 'node_modules', name, 'package.json');
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === name && pkg.version) return pkg.version;
    } catch {
      // Not installed at this level: look one folder up.
    }
  }
  throw new Error(`cannot find the version of ${name} (looked up from ${start})`);
}
