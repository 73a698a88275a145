import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../helpers/tree';

const src = path.join(projectRoot, 'src');

/** Every TypeScript source file under src/. */
function sourceFiles(dir = src): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [full] : [];
  });
}

/** The files of src/ a file imports or re-exports by a relative path, types included, static or dynamic. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const pattern = /(?:^(?:import|export)\b[^'"]*?\bfrom\s*|^import\s*|\bimport\(\s*)'(\.{1,2}\/[^']+)'/gm;
  return [...text.matchAll(pattern)].flatMap((m) => {
    const base = path.resolve(path.dirname(file), m[1] ?? '');
    const found = [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')].find(
      (candidate) => existsSync(candidate) && statSync(candidate).isFile(),
    );
    return found ? [found] : [];
  });
}

describe('the source', () => {
  it('has no file over 300 lines', () => {
    const long = sourceFiles()
      .map((file) => [path.relative(src, file), readFileSync(file, 'utf8').split('\n').length - 1] as const)
      .filter(([, lines]) => lines > 300);
    expect(long).toEqual([]);
  });

  it('has no circle of files importing each other', () => {
    const edges = new Map(sourceFiles().map((file) => [file, importsOf(file)]));
    const circles: string[] = [];
    // Depth-first, with the files on the current path: an import back into the path closes a circle.
    const done = new Set<string>();
    const visit = (file: string, trail: string[]) => {
      if (done.has(file)) return;
      const at = trail.indexOf(file);
      if (at >= 0) {
        circles.push([...trail.slice(at), file].map((f) => path.relative(src, f)).join(' → '));
        return;
      }
      for (const next of edges.get(file) ?? []) visit(next, [...trail, file]);
      done.add(file);
    };
    for (const file of edges.keys()) visit(file, []);
    expect(circles).toEqual([]);
  });
});
