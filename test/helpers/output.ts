import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

/** Every file of a folder, relative path → contents. */
export async function filesOf(dir: string): Promise<Map<string, string>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile());
  const contents = await Promise.all(files.map((entry) => readFile(path.join(entry.parentPath, entry.name), 'utf8')));
  return new Map(
    files.map((entry, i) => [path.relative(dir, path.join(entry.parentPath, entry.name)), contents[i] ?? '']),
  );
}

/** The build's output of `root`: dist/ and manifest/, to compare one build with another. */
export async function buildOutput(root: string): Promise<Map<string, string>> {
  const [dist, manifest] = await Promise.all([filesOf(path.join(root, 'dist')), filesOf(path.join(root, 'manifest'))]);
  return new Map([
    ...[...dist].map(([f, c]) => [`dist/${f}`, c] as const),
    ...[...manifest].map(([f, c]) => [`manifest/${f}`, c] as const),
  ]);
}
