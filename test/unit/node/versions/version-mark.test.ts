import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { folderFiles } from '../../../../src/node/versions/version-mark';
import { makeTree } from '../../../helpers/tree';

describe("a version folder's files, as its mark takes them", () => {
  it('are named by their /-separated paths inside the folder, however the folder is written', async () => {
    const root = await makeTree({
      'README.md': '# Home\n',
      'guide/start.md': '# Start, a longer page\n',
      'guide/deep/images/one.png': 'png',
    });
    const content = path.join(root, 'content');
    const expected = ['README.md', 'guide/deep/images/one.png', 'guide/start.md'];
    const written = [content, `${content}/`, path.join(content, 'guide', '..'), path.relative(process.cwd(), content)];
    for (const folder of written) {
      const files = folderFiles(folder);
      expect(files.map((file) => file.relative).sort()).toEqual(expected);
      expect(files.find((file) => file.relative === 'guide/start.md')?.size).toBe(23);
    }
    const here = process.cwd();
    try {
      process.chdir(content);
      expect(
        folderFiles('.', true)
          .map((file) => file.relative)
          .sort(),
      ).toEqual(expected);
    } finally {
      process.chdir(here);
    }
  });
});
