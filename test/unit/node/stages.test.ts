import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../helpers/tree';

/**
 * Every folder and top-level file of src/node, ranked in the order the build runs them
 * (docs/architecture.md): the helpers every stage may use, the stages src/node/build.ts calls, the
 * build itself, and the commands built on it. A module may import its own rank or an earlier one, never a
 * later one; something new in src/node must be ranked here before this test passes.
 */
const RANKS: Record<string, number> = {
  'compiled.ts': 0,
  'content-hash.ts': 0,
  'diagnostics.ts': 0,
  'excerpt.ts': 0,
  // The installed version of a package, for the identity of what a cache holds.
  'package-version.ts': 0,
  // How a long task on the build's thread gives way: the search data's making, the output's writing.
  'pace.ts': 0,
  'progress.ts': 0,
  // Worker threads of the build, one compiled script each: the page and prerender threads use them.
  'threads.ts': 0,
  'webassembly.d.ts': 0,
  // Writes a file aside and renames it into place: every cache, record and compiled file.
  'write-aside.ts': 0,
  scan: 1,
  // The pages made of the OpenAPI documents `_site.yaml` names, joined to the scanned files.
  openapi: 2,
  analyze: 3,
  // The page highlighter the analyze stage is given (build-worker.ts and site-stages.ts put them together).
  highlight: 3,
  site: 4,
  output: 6,
  // The versions built with a site, each a site of its own that build.ts builds the same way.
  versions: 6,
  'build.ts': 7,
  // The stages put together, as build.ts runs them and dev/ runs them again after an edit.
  'site-stages.ts': 7,
  // The one script of the build's threads: the analyze stage with the page highlighter, and the
  // output stage's prerender, put together as the build does.
  'build-worker.ts': 7,
  serve: 8,
  dev: 9,
  import: 9,
};

const node = path.join(projectRoot, 'src/node');

/** The TypeScript files at or under `entry` (a file or a folder of src/node). */
function filesOf(entry: string): string[] {
  const full = path.join(node, entry);
  if (!statSync(full).isDirectory()) return [entry];
  return readdirSync(full).flatMap((name) => filesOf(path.join(entry, name)));
}

/** The relative specifiers a module imports or re-exports, statically or dynamically. */
function importsOf(file: string): string[] {
  const text = readFileSync(path.join(node, file), 'utf8');
  const pattern = /(?:^(?:import|export)\b[^'"]*?\bfrom\s*|^import\s*|\bimport\(\s*)'(\.{1,2}\/[^']+)'/gm;
  return [...text.matchAll(pattern)].map((m) => m[1] ?? '');
}

/** The ranked entry of src/node a path relative to it falls in, or undefined for a path outside src/node. */
function entryOf(relative: string): string | undefined {
  if (relative.startsWith('..')) return undefined;
  const [first = '', ...rest] = relative.split(path.sep);
  if (rest.length > 0) return first;
  return first.endsWith('.ts') ? first : `${first}.ts`;
}

describe('the build stages', () => {
  it('rank every folder and top-level file of src/node', () => {
    expect(readdirSync(node).filter((entry) => RANKS[entry] === undefined)).toEqual([]);
  });

  it('import only their own rank or the ones before it', () => {
    const backwards: string[] = [];
    for (const [entry, rank] of Object.entries(RANKS)) {
      for (const file of filesOf(entry).filter((f) => f.endsWith('.ts'))) {
        for (const specifier of importsOf(file)) {
          const target = entryOf(path.relative(node, path.resolve(path.dirname(path.join(node, file)), specifier)));
          if (target === undefined) continue;
          const targetRank = RANKS[target];
          if (targetRank === undefined || targetRank > rank) backwards.push(`${file} → ${specifier}`);
        }
      }
    }
    expect(backwards).toEqual([]);
  });

  it('are run by npm run dev as the build runs them: dev/ imports the build only through build.ts and site-stages.ts', () => {
    // The helpers of rank 0 and the server dev/ stands on are no stages.
    const through = ['build.ts', 'site-stages.ts', 'serve'];
    const allowed = (target: string) => through.includes(target) || RANKS[target] === 0;
    const direct = filesOf('dev')
      .filter((f) => f.endsWith('.ts'))
      .flatMap((file) =>
        importsOf(file)
          .filter((specifier) => {
            const resolved = path.relative(node, path.resolve(path.dirname(path.join(node, file)), specifier));
            const target = entryOf(resolved);
            return target !== undefined && target !== 'dev' && !allowed(target);
          })
          .map((specifier) => `${file} → ${specifier}`),
      );
    expect(direct).toEqual([]);
  });

  it('form no cycle: no folder or top-level file imports, even through others, one that imports it', () => {
    const edges = new Map<string, Set<string>>();
    for (const entry of Object.keys(RANKS)) {
      const targets = new Set<string>();
      for (const file of filesOf(entry).filter((f) => f.endsWith('.ts'))) {
        for (const specifier of importsOf(file)) {
          const target = entryOf(path.relative(node, path.resolve(path.dirname(path.join(node, file)), specifier)));
          if (target !== undefined && target !== entry) targets.add(target);
        }
      }
      edges.set(entry, targets);
    }
    const reaches = (from: string, to: string, seen = new Set<string>()): boolean =>
      [...(edges.get(from) ?? [])].some(
        (next) => next === to || (!seen.has(next) && (seen.add(next), reaches(next, to, seen))),
      );
    const cycles = Object.keys(RANKS).filter((entry) => reaches(entry, entry));
    expect(cycles).toEqual([]);
  });
});
