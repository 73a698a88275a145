/**
 * `npm run import -- <old-docs-folder> --out <content-folder> [--force]`
 * Thin command line around src/node/import/import-site.ts: a VuePress 1 or VitePress docs folder becomes a
 * content folder `npm run build -- --content <content-folder>` builds, with `_import-report.md` in it.
 */
import { parseArgs } from 'node:util';
import { isBrokenLink } from './src/node/import/check-tree';
import { ImportError, importSite } from './src/node/import/import-site';

const USAGE = 'usage: npm run import -- <old-docs-folder> --out <content-folder> [--force]';

async function main(): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      allowPositionals: true,
      options: {
        out: { type: 'string' },
        force: { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
    });
  } catch (error) {
    console.error(`import: ${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const [source] = positionals;
  if (!source || !values.out || positionals.length > 1) {
    console.error(
      `import: ${!source ? 'name the old docs folder' : !values.out ? 'name the new content folder with --out' : 'one old docs folder at a time'}\n${USAGE}`,
    );
    return 2;
  }
  const started = performance.now();
  try {
    const result = await importSite({ source, out: values.out, force: values.force });
    const seconds = ((performance.now() - started) / 1000).toFixed(2);
    for (const entry of result.report.entries.filter((e) => e.kind === 'lost')) {
      console.warn(`${entry.line > 0 ? `${entry.file}:${entry.line}` : entry.file} not carried over: ${entry.message}`);
    }
    const broken = result.report.entries.filter((e) => e.kind === 'broken');
    for (const entry of broken) console.warn(`${entry.file}:${entry.line}:${entry.column} ${entry.message}`);
    const links = broken.filter((e) => isBrokenLink(e.message)).length;
    if (links > 0) {
      console.warn(
        `${links} ${links === 1 ? 'link was' : 'links were'} already broken in the old site: fix ${links === 1 ? 'it' : 'them'}, or build with \`--no-strict\` meanwhile`,
      );
    }
    if (broken.length > links) {
      console.warn(`${broken.length - links} more problems above stop a strict build: fix them before it`);
    }
    console.log(
      `imported ${result.pages} pages and ${result.redirects} redirects from ${result.tool} in ${seconds}s: ` +
        `${result.report.count('changed')} changes, ${result.report.count('lost')} not carried over (see ${result.reportFile})`,
    );
    console.log(`next: npm run build -- --content ${values.out}`);
    console.log(
      `or keep it as an older version of another site: in that site's _site.yaml, under versions:\n` +
        `  - { text: v1, content: <${values.out} from that content folder>, route: /v1/, strict: false }`,
    );
    return 0;
  } catch (error) {
    if (error instanceof ImportError) {
      console.error(`import: ${error.message}`);
      return 1;
    }
    throw error;
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`import: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(70);
  },
);
