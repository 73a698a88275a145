import { createHash } from 'node:crypto';
import { DomUtils, parseDocument } from 'htmlparser2';
import { packageVersion } from '../../package-version';
import { markDrawn } from './drawn-markup';
import { escapeHtml } from './escape';
import { drawTimeline } from './timeline-draw';
import { parseTimeline } from './timeline-parse';

/**
 * What a drawing depends on besides its block's text: the renderer's version and the way this module
 * turns its SVG into the page's, or draws a timeline (raise `DRAWING_FORMAT` when either changes, and
 * cached drawings are redrawn).
 */
const DRAWING_FORMAT = 2;
const RENDERER = `beautiful-mermaid ${packageVersion('beautiful-mermaid')} ${DRAWING_FORMAT}`;

/**
 * A diagram's key in the highlight cache, where the page pass keeps what it drew (`CodeHighlighting.drawn`):
 * its block's text and the renderer. The page's code keys include it, so a page reused from the render
 * cache keeps its diagrams' entries as it keeps its code's.
 */
export function diagramKey(source: string): string {
  return `mermaid-${createHash('sha256').update(`${RENDERER}\0${source}`).digest('hex').slice(0, 16)}`;
}

/**
 * beautiful-mermaid, loaded by `prepareDiagrams` before the first page with a mermaid block is rendered:
 * most sites have few diagrams or none, and the renderer is the costliest of the pipeline's packages to
 * load, in every thread that makes pages. It is an ES module only, so it cannot be loaded as rendering
 * needs it (rendering does not wait).
 */
let mermaid: typeof import('beautiful-mermaid') | undefined;

/** Whether a page's markdown may hold a mermaid block, for which `prepareDiagrams` must come first. */
export function mayHoldDiagrams(markdown: string): boolean {
  return markdown.includes('mermaid');
}

/** Loads the diagram renderer, once. */
export async function prepareDiagrams(): Promise<void> {
  mermaid ??= await import('beautiful-mermaid');
}

/** beautiful-mermaid draws no timeline: timeline-parse.ts and timeline-draw.ts do. */
const TIMELINE = /^timeline\b/i;

/** The diagram types drawn, by the keyword a block starts with: beautiful-mermaid's, and timelines (ours). */
const SUPPORTED = [
  ['flowchart', /^(graph|flowchart)\b/i],
  ['sequenceDiagram', /^sequenceDiagram\b/],
  ['stateDiagram-v2', /^stateDiagram(-v2)?\b/],
  ['classDiagram', /^classDiagram\b/],
  ['erDiagram', /^erDiagram\b/],
  ['xychart-beta', /^xychart(-beta)?\b/],
  ['timeline', TIMELINE],
] as const;

/** A drawn diagram, or what is wrong with its block and on which of its lines (0 for the first). */
export type Diagram = { svg: string; labels: string[] } | { problem: string; line: number };

/**
 * The drawing of a block from the highlight cache when `drawn` has it there (see `CodeHighlighting.drawn`),
 * else drawn now and recorded; a problem is never cached, so that every build reports it. The drawing is
 * cached unmarked, and marked as the build's (drawn-markup.ts) when it is taken.
 */
export function cachedDiagram(
  source: string,
  drawn: ((key: string, draw: () => string | undefined) => string | undefined) | undefined,
): Diagram {
  let problem: Diagram | undefined;
  const draw = () => {
    const diagram = drawDiagram(source);
    if ('svg' in diagram) return JSON.stringify(diagram);
    problem = diagram;
    return undefined;
  };
  const json = drawn ? drawn(diagramKey(source), draw) : draw();
  if (problem) return problem;
  // `drawn` gives undefined only when `draw` did, which set `problem`.
  const diagram = JSON.parse(json!) as { svg: string; labels: string[] };
  return { svg: markDrawn(diagram.svg), labels: diagram.labels };
}

/**
 * A ```` ```mermaid ```` block drawn at build time as inline SVG (not yet marked as drawn: `cachedDiagram`), so no diagram code reaches the browser.
 * Its colours are the site's CSS variables (diagrams.css gives the variables the drawing uses), so the
 * light and dark themes share one drawing. What the drawing would set itself has no place under the
 * site's Content-Security-Policy and is left out: its `<style>` (with a web font from another site) and
 * its inline `style`. Its ids are made unique to the block, as a page may hold several diagrams. It is an
 * image named by its `accTitle` and `accDescr`, else by its labels, which are also what search indexes.
 */
export function drawDiagram(source: string): Diagram {
  const lines = source.split('\n');
  const first = lines.findIndex((line) => line.trim() !== '' && !line.trim().startsWith('%%'));
  const header = lines[first]?.trim() ?? '';
  if (!SUPPORTED.some(([, pattern]) => pattern.test(header))) {
    const type = header.split(/\s/)[0] || 'an empty block';
    const names = SUPPORTED.map(([name]) => name).join(', ');
    return {
      problem: `mermaid diagram type "${type}" is not supported: use one of ${names}`,
      line: Math.max(0, first),
    };
  }
  const { title, description, rest } = accessibleText(lines);
  let svg: string;
  let shownTitle: string | undefined;
  if (TIMELINE.test(header)) {
    const timeline = parseTimeline(rest);
    if ('problem' in timeline) return { problem: `mermaid timeline: ${timeline.problem}`, line: timeline.line };
    svg = drawTimeline(timeline);
    shownTitle = timeline.title;
  } else {
    try {
      if (!mermaid) throw new Error('a mermaid block was rendered before prepareDiagrams() had loaded the renderer');
      svg = mermaid.renderMermaidSVG(rest.join('\n'), { bg: 'var(--bg)', fg: 'var(--text)', transparent: true });
    } catch (error) {
      return { problem: `mermaid diagram does not parse: ${(error as Error).message}`, line: first };
    }
  }
  const texts = DomUtils.findAll((el) => el.name === 'text', parseDocument(svg, { xmlMode: true }).children);
  const labels = texts.map(labelOf);
  const named = [title ?? shownTitle, description].filter(Boolean).join(': ');
  const name = named || `Diagram: ${[...new Set(labels)].join(', ')}`;
  const key = diagramKey(source);
  return { svg: withoutOwnStyles(svg, key, name), labels: [title, description, ...labels].filter(isText) };
}

type DrawnText = ReturnType<typeof DomUtils.findAll>[number];

/** A `<text>`'s words: the lines of a wrapped label (its `<tspan>`s) joined by a space. */
function labelOf(text: DrawnText): string {
  const lines = DomUtils.getElementsByTagName('tspan', text.children, false);
  const parts = lines.length > 0 ? lines.map((line) => DomUtils.textContent(line)) : [DomUtils.textContent(text)];
  return parts
    .map((part) => part.trim())
    .filter(Boolean)
    .join(' ');
}

function isText(text: string | undefined): text is string {
  return text !== undefined && text !== '';
}

/**
 * `accTitle: …`, `accDescr: …` and `accDescr { … }` over several lines (mermaid's accessible title and
 * description), taken out of the source: their lines are left blank, so the others keep their numbers.
 */
function accessibleText(lines: string[]): { title?: string; description?: string; rest: string[] } {
  const found: { title?: string; description?: string } = {};
  const rest = [...lines];
  for (let index = 0; index < rest.length; index++) {
    const single = /^\s*acc(Title|Descr)\s*:\s*(.*)$/.exec(rest[index]!);
    if (single) {
      found[single[1] === 'Title' ? 'title' : 'description'] = single[2]!.trim();
      rest[index] = '';
      continue;
    }
    if (!/^\s*accDescr\s*\{/.test(rest[index]!)) continue;
    const end = rest.findIndex((line, at) => at >= index && line.includes('}'));
    const last = end === -1 ? rest.length - 1 : end;
    const block = rest.slice(index, last + 1).join('\n');
    found.description = block
      .replace(/^\s*accDescr\s*\{/, '')
      .replace(/\}[\s\S]*$/, '')
      .replace(/\s+/g, ' ')
      .trim();
    rest.fill('', index, last + 1);
    index = last;
  }
  return { ...found, rest };
}

/** The drawing without its `<style>` and inline `style`, its ids prefixed with its key, named as an image. */
function withoutOwnStyles(svg: string, key: string, name: string): string {
  const prefix = `${key}-`;
  let out = svg.replace(/<style>[\s\S]*?<\/style>\s*/g, '').replace(/^<svg([^>]*?) style="[^"]*"/, '<svg$1');
  const ids = [...out.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]!);
  for (const id of new Set(ids)) {
    out = out.split(` id="${id}"`).join(` id="${prefix}${id}"`).split(`url(#${id})`).join(`url(#${prefix}${id})`);
  }
  return out.replace(/^<svg/, `<svg data-diagram="${key}" role="img" aria-label="${escapeHtml(name)}"`);
}
