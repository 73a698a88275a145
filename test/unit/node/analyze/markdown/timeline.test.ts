import { DomUtils, parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { drawDiagram } from '../../../../../src/node/analyze/markdown/diagram';
import { textWidth, wrapText } from '../../../../../src/node/analyze/markdown/text-lines';
import { drawTimeline } from '../../../../../src/node/analyze/markdown/timeline-draw';
import { parseTimeline } from '../../../../../src/node/analyze/markdown/timeline-parse';

const RELEASES = [
  'timeline',
  '  title Releases of the event API',
  '  %% a comment',
  '  section Beta',
  '    2023 Q3 : Webhook sources : Polling sources',
  '    2023 Q4 : Retries',
  '            : Dead-letter queue for events that fail every retry of every step',
  '  section General availability',
  '    2024 : SSE stream <br> with replay',
  '    2025',
];

describe('mermaid timelines: the syntax', () => {
  it('reads the title, sections, periods and their events, on one line or on the lines below', () => {
    expect(parseTimeline(RELEASES)).toEqual({
      title: 'Releases of the event API',
      sections: [
        {
          name: 'Beta',
          periods: [
            { label: '2023 Q3', events: ['Webhook sources', 'Polling sources'] },
            {
              label: '2023 Q4',
              events: ['Retries', 'Dead-letter queue for events that fail every retry of every step'],
            },
          ],
        },
        {
          name: 'General availability',
          periods: [
            { label: '2024', events: ['SSE stream <br> with replay'] },
            { label: '2025', events: [] },
          ],
        },
      ],
    });
  });

  it('keeps a colon without a space after it inside an event, as in a URL', () => {
    expect(parseTimeline(['timeline', 'Launch : docs at https://example.com/docs'])).toEqual({
      sections: [{ periods: [{ label: 'Launch', events: ['docs at https://example.com/docs'] }] }],
    });
  });

  it.each([
    [['timeline TD', '2024 : a'], 0, 'a timeline is drawn left to right only: write "timeline" (found "timeline TD")'],
    [['timeline', '2024:Launch'], 1, 'put a space after the ":" that starts an event (found "2024:Launch")'],
    [['timeline', '  : Launch'], 1, 'an event needs a period before it: write "period : event"'],
    [['timeline', '2024 : Launch :'], 1, 'an event has no text after its ":" (found "2024 : Launch :")'],
    [['timeline', 'title'], 1, '"title" needs its text on the same line'],
    [
      ['timeline', 'section Beta', 'section GA', '2024 : a'],
      1,
      'section "Beta" has no period: add "period : event" lines under it',
    ],
    [['timeline', 'section Beta: early'], 1, 'a section\'s name cannot hold ":" (found "Beta: early")'],
    [['', 'timeline', 'title Nothing yet'], 1, 'a timeline needs at least one "period : event" line'],
  ])('names what is wrong with %j and its line', (lines, line, problem) => {
    expect(parseTimeline(lines)).toEqual({ problem, line });
  });
});

describe('mermaid timelines: the drawing', () => {
  const svg = drawTimeline(parseTimeline(RELEASES) as Exclude<ReturnType<typeof parseTimeline>, { problem: string }>);
  const document = parseDocument(svg, { xmlMode: true });
  const all = (name: string) => DomUtils.getElementsByTagName(name, document);
  const groups = (kind: string) => all('g').filter((g) => g.attribs['class'] === kind);
  const box = (g: ReturnType<typeof all>[number]) => {
    const rect = DomUtils.getElementsByTagName('rect', g.children, false)[0]!.attribs;
    return { x: Number(rect['x']), y: Number(rect['y']), width: Number(rect['width']), height: Number(rect['height']) };
  };

  it('draws a box for each period on one row, in order, under its section, with its events below it', () => {
    const periods = groups('timeline-period');
    expect(
      periods.map((g) => DomUtils.textContent(DomUtils.getElementsByTagName('text', g.children, false)[0]!)),
    ).toEqual(['2023 Q3', '2023 Q4', '2024', '2025']);
    const boxes = periods.map(box);
    expect(new Set(boxes.map((b) => b.y)).size).toBe(1);
    for (const [index, b] of boxes.entries()) if (index > 0) expect(b.x).toBeGreaterThan(boxes[index - 1]!.x + b.width);
    // Each section spans its own periods.
    const sections = groups('timeline-section').map(box);
    expect(sections).toHaveLength(2);
    expect(sections[0]!.x).toBe(boxes[0]!.x);
    expect(sections[0]!.x + sections[0]!.width).toBe(boxes[1]!.x + boxes[1]!.width);
    expect(sections[1]!.x).toBe(boxes[2]!.x);
    expect(sections[0]!.y + sections[0]!.height).toBeLessThan(boxes[0]!.y);
    // Events stack below their period, one under the other, and below the axis.
    const axis = Number(all('line').find((line) => line.attribs['class'] === 'timeline-axis')!.attribs['y1']);
    expect(axis).toBeGreaterThan(boxes[0]!.y + boxes[0]!.height);
    const events = periods.map((g) =>
      groups('timeline-event')
        .filter((event) => event.parent === g)
        .map(box),
    );
    expect(events.map((list) => list.length)).toEqual([2, 2, 1, 0]);
    for (const [index, list] of events.entries()) {
      for (const [at, event] of list.entries()) {
        expect(event.x).toBe(boxes[index]!.x);
        expect(event.y).toBeGreaterThan(at === 0 ? axis : list[at - 1]!.y + list[at - 1]!.height);
      }
    }
    // The drawing holds everything it draws.
    const [width, height] = [Number(all('svg')[0]!.attribs['width']), Number(all('svg')[0]!.attribs['height'])];
    expect(all('svg')[0]!.attribs['viewBox']).toBe(`0 0 ${width} ${height}`);
    for (const b of [...boxes, ...events.flat()]) {
      expect(b.x + b.width).toBeLessThanOrEqual(width);
      expect(b.y + b.height).toBeLessThanOrEqual(height);
    }
  });

  it('wraps a long event inside its box, and breaks a line at <br>', () => {
    const event = groups('timeline-event').find((g) => DomUtils.textContent(g).startsWith('Dead-letter'))!;
    const lines = DomUtils.getElementsByTagName('tspan', event).map((tspan) => DomUtils.textContent(tspan));
    expect(lines.join(' ')).toBe('Dead-letter queue for events that fail every retry of every step');
    expect(lines.length).toBeGreaterThan(2);
    const { width, height } = box(event);
    for (const line of lines) expect(textWidth(line, 12)).toBeLessThanOrEqual(width);
    expect(height).toBeGreaterThanOrEqual(lines.length * 12 * 1.3);
    const sse = groups('timeline-event').find((g) => DomUtils.textContent(g).startsWith('SSE'))!;
    expect(DomUtils.getElementsByTagName('tspan', sse).map((tspan) => DomUtils.textContent(tspan))).toEqual([
      'SSE stream',
      'with replay',
    ]);
  });

  it('paints with the CSS variables the other diagrams use, and nothing else', () => {
    const paints = [...svg.matchAll(/ (?:fill|stroke)="([^"]+)"/g)].map((m) => m[1]);
    expect(new Set(paints)).toEqual(
      new Set([
        'var(--_arrow)',
        'var(--_text)',
        'var(--_text-sec)',
        'var(--_group-hdr)',
        'var(--_node-stroke)',
        'var(--_node-fill)',
        'var(--_group-fill)',
        'var(--_inner-stroke)',
        'var(--_line)',
      ]),
    );
    expect(svg).not.toMatch(/<style| style=|font-family|#[0-9a-f]{3,6}"/i);
  });
});

describe('mermaid timelines as diagrams', () => {
  it('are named by their title, searched by their labels, and a bad line is placed in the block', () => {
    const drawn = drawDiagram(RELEASES.join('\n'));
    expect('svg' in drawn && drawn.svg).toMatch(
      /^<svg data-diagram="mermaid-[0-9a-f]{16}" role="img" aria-label="Releases of the event API"/,
    );
    expect('labels' in drawn && drawn.labels).toEqual(
      expect.arrayContaining(['Beta', '2023 Q4', 'Dead-letter queue for events that fail every retry of every step']),
    );
    expect(
      drawDiagram('timeline\n  accTitle: Our releases\n  accDescr {\n    Four periods\n  }\n\n  2024:Launch'),
    ).toEqual({
      problem: 'mermaid timeline: put a space after the ":" that starts an event (found "2024:Launch")',
      line: 6,
    });
  });
});

describe('labels of a drawing', () => {
  it('are cut into lines at words, and a word longer than a line inside it', () => {
    expect(wrapText('a b c', 1000, 12)).toEqual(['a b c']);
    expect(wrapText('Dead-letter queue', 80, 12)).toEqual(['Dead-letter', 'queue']);
    expect(wrapText('abcdefghijklmnopqrstuvwxyz', 70, 12)).toEqual(['abcdefghij', 'klmnopqrst', 'uvwxyz']);
  });
});
