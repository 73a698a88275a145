import { execFile } from 'node:child_process';
import path from 'node:path';

/**
 * Two optional lines under each page: a link to edit its source (`editLink.pattern` of `_site.yaml`, with
 * `:path` for the file's path in the content folder) and the date it last changed (`lastUpdated: true`),
 * read from git history when the build runs. Outside a git checkout, or for a file git does not know, a
 * page simply has no date: the history is a nicety and never fails a build.
 */

/** The edit URL of one page: the pattern with `:path` replaced by its path in the content folder. */
export function editLinkOf(pattern: string, relativePath: string): string {
  return pattern.replace(':path', relativePath.split('/').map(encodeURIComponent).join('/'));
}

/** Git's answer is at most this large: a history of many thousands of commits still fits. */
const MAX_GIT_OUTPUT = 256 * 1024 * 1024;

/**
 * The date (ISO 8601, from the committer date) of the last commit that touched each file of the content
 * folder, by path relative to it: one `git log` for the whole tree, newest first, so a file's first
 * appearance is its last change.
 */
export function lastCommitDates(contentDir: string): Promise<Map<string, string>> {
  return new Promise((resolve) => {
    execFile(
      'git',
      ['log', '--format=%x00%cI', '--name-only', '--relative', '--no-renames', '--', '.'],
      { cwd: path.resolve(contentDir), maxBuffer: MAX_GIT_OUTPUT, encoding: 'utf8' },
      (error, stdout) => {
        const dates = new Map<string, string>();
        if (error) return resolve(dates);
        for (const commit of stdout.split('\0')) {
          const [date = '', ...files] = commit.split('\n');
          if (!date) continue;
          for (const file of files) if (file && !dates.has(file)) dates.set(file, date.trim());
        }
        resolve(dates);
      },
    );
  });
}
