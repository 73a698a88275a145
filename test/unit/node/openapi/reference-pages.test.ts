import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DiagnosticList } from '../../../../src/node/diagnostics';
import { loadApiDocument } from '../../../../src/node/openapi/load-document';
import { referencePages, type ReferencePage } from '../../../../src/node/openapi/reference-pages';
import { projectRoot } from '../../../helpers/tree';

/**
 * The pages made from `test/fixtures/openapi/tasks.yaml`, against `tasks.md` beside it. Rewrite it on
 * purpose after an intended change (`UPDATE_GOLDEN=1`), then review the diff; a missing one fails.
 */
const fixtures = path.join(projectRoot, 'test/fixtures/openapi');
const update = process.env['UPDATE_GOLDEN'] === '1';

let loaded: Promise<ReferencePage[]> | undefined;

/** The fixture's pages, made once: compiling the OpenAPI schemas is most of the time. */
function tasksPages(): Promise<ReferencePage[]> {
  loaded ??= (async () => {
    const diagnostics = new DiagnosticList(true);
    const api = await loadApiDocument(fixtures, 'tasks.yaml', {}, diagnostics);
    expect(diagnostics.items).toEqual([]);
    return referencePages(api!.api, '/reference/');
  })();
  return loaded;
}

/** The fenced blocks of a language in a page's markdown. */
function blocks(markdown: string, info: string): string[] {
  return [...markdown.matchAll(new RegExp('```' + info.replace(/[[\]]/g, '\\$&') + '\\n([\\s\\S]*?)\\n```', 'g'))].map(
    (match) => match[1]!,
  );
}

describe('referencePages', () => {
  it('gives the golden markdown for a small document', async () => {
    const pages = await tasksPages();
    const text = pages.map((page) => `<!-- ${page.relativePath} → ${page.route} -->\n${page.markdown}`).join('\n');
    const golden = path.join(fixtures, 'tasks.md');
    if (update) writeFileSync(golden, text);
    else if (!existsSync(golden))
      throw new Error('test/fixtures/openapi/tasks.md is missing: write it with UPDATE_GOLDEN=1');
    expect(text).toBe(readFileSync(golden, 'utf8'));
  });

  it('makes an overview and a page per tag, each operation under its operationId', async () => {
    const pages = await tasksPages();
    expect(pages.map((page) => page.route)).toEqual([
      '/reference/',
      '/reference/tasks/',
      '/reference/other-operations/',
    ]);
    const tasks = pages[1]!.markdown;
    expect(tasks).toContain('## List tasks {#listTasks}');
    expect(tasks).toContain('| `limit` | query | integer | no | `20` | How many tasks a page holds. From 1 to 50. |');
    expect(pages[0]!.markdown).toContain('| [Create a task](/reference/tasks/#createTask) | `POST /tasks` |');
    // Without an operationId, the anchor comes from the method and path.
    expect(pages[2]!.markdown).toContain('## Check health {#get-health}');
  });

  it('shows a recursive schema once, and says where it repeats', async () => {
    const tasks = (await tasksPages())[1]!.markdown;
    expect(tasks).toContain('  - *the same structure as its parent, nested*');
  });

  it('writes code that Node.js and Python can parse, with the literal $ of a path kept from the shell', async () => {
    const pages = await tasksPages();
    const dir = await mkdtemp(path.join(tmpdir(), 'docs-snippets-'));
    const markdown = pages.map((page) => page.markdown).join('\n');
    const node = blocks(markdown, 'javascript [Node.js]');
    const python = blocks(markdown, 'python [Python]');
    expect(node).toHaveLength(4);
    expect(python).toHaveLength(4);
    for (const [index, code] of node.entries()) {
      const file = path.join(dir, `snippet-${index}.mjs`);
      await writeFile(file, code);
      execFileSync(process.execPath, ['--check', file]);
    }
    const files = python.map((_code, index) => path.join(dir, `snippet-${index}.py`));
    for (const [index, code] of python.entries()) await writeFile(files[index]!, code);
    const compileAll = 'import py_compile, sys\nfor f in sys.argv[1:]: py_compile.compile(f, doraise=True)';
    execFileSync('python3', ['-c', compileAll, ...files]);
    const curl = blocks(markdown, 'bash [curl]');
    expect(curl).toContain(
      `curl -s -X DELETE 'https://api.example.com/v2/tasks/t_1/$done' \\\n  -H "Authorization: Bearer $TASKS_TOKEN"`,
    );
    // The header the operation requires is sent, and a request body leaves out read-only fields.
    expect(curl[0]).toContain(`-H 'X-Request-Id: req-1'`);
    expect(python[1]).toContain('json={\n        "title": "string",\n        "state": "open",');
    expect(python[1]).not.toContain('"id"');
  });
});
