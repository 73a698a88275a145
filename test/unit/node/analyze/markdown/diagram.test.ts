import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildTree, makeTree, messages } from '../../../../helpers/tree';

const FLOWCHART = [
  '```mermaid',
  'flowchart LR',
  '  accTitle: The path of an event',
  '  source[Event source] --> workflow{Workflow}',
  '  workflow --> steps[Steps]',
  '  steps --> destinations[(Destinations)]',
  '```',
].join('\n');

const SEQUENCE = [
  '```mermaid',
  'sequenceDiagram',
  '  participant Client',
  '  participant Stream',
  '  Client->>Stream: GET /events',
  '  Stream-->>Client: event: ping',
  '```',
].join('\n');

const PAGE = `# Diagrams\n\nAn event's path.\n\n${FLOWCHART}\n\n## Streams\n\n<kbd>Raw HTML</kbd> on the page too.\n\n${SEQUENCE}\n`;

describe('mermaid diagrams', () => {
  it('are drawn at build time as inline SVG in the site colours, searchable, and kept as source in the twin', async () => {
    const root = await makeTree({ '_site.yaml': 'title: Docs\n', 'README.md': PAGE });
    expect(messages(await buildTree(root))).toEqual([]);
    const html = readFileSync(path.join(root, 'dist/index.html'), 'utf8');
    const figures = [...html.matchAll(/<figure class="diagram"[^>]*>([\s\S]*?)<\/figure>/g)].map((m) => m[1]!);
    expect(figures).toHaveLength(2);
    // Named as an image: by its accessible title, else by its labels.
    expect(figures[0]).toMatch(
      /^<svg data-diagram="mermaid-[0-9a-f]{16}" role="img" aria-label="The path of an event"/,
    );
    expect(figures[1]).toMatch(/^<svg data-diagram="[^"]+" role="img" aria-label="Diagram: [^"]*Client[^"]*Stream/);
    for (const svg of figures) {
      // Colours come from CSS variables; nothing the site's CSP would block, no font from elsewhere.
      expect(svg).toContain('fill="var(--_node-fill)"');
      expect(svg).not.toMatch(/<style| style="|googleapis/);
    }
    expect(figures[0]).toContain('>Destinations</text>');
    // Ids are the block's own: two diagrams on a page never share one.
    const ids = figures.flatMap((svg) => [...svg.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]));
    expect(new Set(ids).size).toBe(ids.length);
    const twin = readFileSync(path.join(root, 'dist/index.md'), 'utf8');
    expect(twin).toContain(FLOWCHART);
    expect(twin).toContain(SEQUENCE);
    const search = readdirSync(path.join(root, 'manifest/search'))
      .map((file) => readFileSync(path.join(root, 'manifest/search', file), 'utf8'))
      .join('\n');
    // The labels are indexed (as the index stems them), the mermaid syntax is not.
    const words = /"w":"([^"]*)"/.exec(search)?.[1]?.split(' ') ?? [];
    expect(words).toEqual(expect.arrayContaining(['destination', 'workflow', 'client', 'stream']));
    expect(words.filter((word) => /flowchart|acctitle|participant|sequencediagram/.test(word))).toEqual([]);
    const scripts = readdirSync(path.join(root, 'dist/assets/js'), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.js'))
      .map((file) => readFileSync(path.join(root, 'dist/assets/js', file), 'utf8'));
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.filter((text) => /mermaid|elkjs|sequenceDiagram/i.test(text))).toEqual([]);
  });

  it('are kept in the highlight cache by their text: a later build takes them from there, redrawing only a changed one', async () => {
    const state = '```mermaid\nstateDiagram-v2\n  Queued --> Running\n  Running --> Retrying\n```';
    const root = await makeTree({
      '_site.yaml': 'title: Docs\n',
      'README.md': PAGE,
      'other.md': `# Other\n\n${state}\n`,
    });
    expect(messages(await buildTree(root))).toEqual([]);
    const cacheFile = path.join(root, '.cache/highlight.json');
    const cached = () => JSON.parse(readFileSync(cacheFile, 'utf8')) as { entries: Record<string, string> };
    const drawings = () => Object.entries(cached().entries).filter(([key]) => key.startsWith('mermaid-'));
    expect(drawings()).toHaveLength(3);
    // A drawing read from the cache is the cached one: one changed there shows on the page built next.
    const file = cached();
    for (const [key, drawing] of drawings()) file.entries[key] = drawing.replace('>Destinations<', '>From the cache<');
    writeFileSync(cacheFile, JSON.stringify(file));
    const readme = path.join(root, 'content/README.md');
    writeFileSync(readme, PAGE.replace("An event's path.", 'The path an event takes.'));
    expect(messages(await buildTree(root))).toEqual([]);
    const page = () => readFileSync(path.join(root, 'dist/index.html'), 'utf8');
    expect(page()).toContain('>From the cache</text>');
    // A changed diagram is drawn again, and its old drawing leaves the cache; the other page, reused
    // unchanged from the last build, keeps its diagram's.
    writeFileSync(readme, PAGE.replace('(Destinations)', '(Every destination)'));
    expect(messages(await buildTree(root))).toEqual([]);
    expect(page()).toContain('>Every destination</text>');
    expect(page()).not.toContain('>From the cache</text>');
    const labels = drawings().map(([, drawing]) =>
      drawing.includes('Running') ? 'state' : /Every destination|Client/.exec(drawing)?.[0],
    );
    expect(labels.sort()).toEqual(['Client', 'Every destination', 'state']);
  });

  it('fail the build at the line of a diagram that does not parse, or of a type that is not drawn', async () => {
    const page = [
      '# Broken',
      '',
      '```mermaid',
      'flowchart sideways',
      '  a --> b',
      '```',
      '',
      '```mermaid',
      '%% a comment first',
      'pie title Pets',
      '  "Dogs" : 3',
      '```',
      '',
      '```mermaid',
      'timeline',
      '  2024 : Sources',
      '  2025:Streams',
      '```',
      '',
    ].join('\n');
    const root = await makeTree({ '_site.yaml': 'title: Docs\n', 'README.md': page });
    const result = await buildTree(root);
    expect(result.ok).toBe(false);
    expect(messages(result)).toEqual([
      'README.md:4:1 mermaid diagram does not parse: Invalid mermaid header: "flowchart sideways". Expected "graph TD", "flowchart LR", "stateDiagram-v2", etc.',
      'README.md:10:1 mermaid diagram type "pie" is not supported: use one of flowchart, sequenceDiagram, stateDiagram-v2, classDiagram, erDiagram, xychart-beta, timeline',
      'README.md:17:1 mermaid timeline: put a space after the ":" that starts an event (found "2025:Streams")',
    ]);
  });

  it('draw a timeline, which passes the sanitizer whole on a page with raw HTML', async () => {
    const timeline = [
      '```mermaid',
      'timeline',
      '  title Retries of a failed step',
      '  section First day',
      '    1 minute : Second attempt',
      "    10 minutes : Third attempt : The step's alert is sent",
      '  section Later',
      '    1 day : Last attempt, then the event goes to the dead-letter queue',
      '```',
    ].join('\n');
    const root = await makeTree({
      '_site.yaml': 'title: Docs\n',
      'README.md': `# Plain\n\n${timeline}\n`,
      'raw.md': `# Raw\n\n<kbd>Raw HTML</kbd> too.\n\n${timeline}\n`,
    });
    expect(messages(await buildTree(root))).toEqual([]);
    const figure = (file: string) =>
      /<figure class="diagram"[^>]*>([\s\S]*?)<\/figure>/.exec(
        readFileSync(path.join(root, 'dist', file), 'utf8'),
      )?.[1];
    const plain = figure('index.html')!;
    expect(plain).toMatch(/^<svg data-diagram="mermaid-[0-9a-f]{16}" role="img" aria-label="Retries of a failed step"/);
    expect(plain).toContain('>Second attempt</text>');
    // The sanitizer reads attribute names in lower case (a browser gives SVG's their case back) and keeps
    // every element and attribute of the drawing; it writes an apostrophe in text as itself.
    expect(figure('raw/index.html')!.toLowerCase()).toBe(plain.toLowerCase().replace(/&#39;/g, "'"));
    const twin = readFileSync(path.join(root, 'dist/index.md'), 'utf8');
    expect(twin).toContain(timeline);
    // Cached by its text as the other diagrams are: both pages' blocks are one entry.
    const cache = JSON.parse(readFileSync(path.join(root, '.cache/highlight.json'), 'utf8')) as {
      entries: Record<string, string>;
    };
    const key = /data-diagram="([^"]+)"/.exec(plain)![1]!;
    expect(Object.keys(cache.entries).filter((entry) => entry.startsWith('mermaid-'))).toEqual([key]);
    expect(cache.entries[key]).toContain('Second attempt');
  });

  it('are the only SVG and MathML kept: what a writer types, even with a mark like a drawing, is dropped', async () => {
    const forged = '<svg data-drawn="0"><circle r="1"></circle></svg>';
    const page = `# Drawn\n\n${FLOWCHART}\n\n${forged}\n\n<math><mi>x</mi></math> and $y$.\n`;
    const root = await makeTree({ '_site.yaml': 'title: Docs\n', 'README.md': page });
    const result = await buildTree(root, { strict: false });
    expect(messages(result)).toEqual([
      'README.md:11:1 warning: <svg> is not allowed in pages and was removed',
      'README.md:13:1 warning: <math> is not allowed in pages and was removed',
    ]);
    const html = readFileSync(path.join(root, 'dist/index.html'), 'utf8');
    expect(html.match(/<svg\b/g)).toHaveLength(1);
    expect(html).toContain('role="img" aria-label="The path of an event"');
    expect(html).not.toContain('<circle r="1"');
    expect(html).not.toContain('<mi>x</mi>');
    expect(html).toMatch(/<math [^>]*><semantics><mrow><mi>y<\/mi>/);
    expect(html).not.toContain('data-drawn');
  });
});
