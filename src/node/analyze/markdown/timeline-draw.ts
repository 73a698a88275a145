import { escapeHtml } from './escape';
import { textWidth, wrapText } from './text-lines';
import type { Timeline } from './timeline-parse';

/** Sizes in SVG units: a column for each period, as wide as a diagram's node holds two short lines. */
const MARGIN = 24;
const COLUMN = 168;
const GAP = 16;
const BOX_PADDING = 10;
const LINE_HEIGHT = 1.3;
const FONT = { title: 18, section: 12, period: 13, event: 12 } as const;

/** A box's label, already cut into lines, and how tall the box is. */
interface Label {
  lines: string[];
  height: number;
}

function label(text: string, width: number, fontSize: number, bold: boolean): Label {
  const lines = wrapText(text, width - 2 * BOX_PADDING, fontSize, bold);
  return { lines, height: lines.length * fontSize * LINE_HEIGHT + 2 * BOX_PADDING };
}

/** SVG numbers to a tenth, so the drawing stays short and the same from one build to the next. */
function n(value: number): number {
  return Math.round(value * 10) / 10;
}

/**
 * A timeline drawn left to right, in the way beautiful-mermaid draws the other diagrams and painted with
 * the same CSS variables (diagrams.css sets them from the site's): its title above; each section's name
 * over its periods; a box for each period on an arrow that runs the length of the timeline; each period's
 * events stacked below it on a dashed line. Long labels wrap inside their box.
 */
export function drawTimeline(timeline: Timeline): string {
  const sections = timeline.sections.filter((section) => section.periods.length > 0);
  const periods = sections.flatMap((section) => section.periods);
  const columnsWidth = periods.length * COLUMN + (periods.length - 1) * GAP;
  const title = timeline.title ? wrapText(timeline.title, Math.max(columnsWidth, 360), FONT.title, true) : [];
  const titleWidth = Math.max(0, ...title.map((line) => textWidth(line, FONT.title, true)));
  const width = MARGIN * 2 + Math.max(columnsWidth + GAP, titleWidth);
  const parts: string[] = [];
  let y = MARGIN;
  if (title.length > 0) {
    parts.push(text(title, width / 2, y, FONT.title, 600, 'var(--_text)', 'timeline-title'));
    y += title.length * FONT.title * LINE_HEIGHT + GAP;
  }

  let column = 0;
  const spans = sections.map((section) => {
    const first = column;
    column += section.periods.length;
    const spanWidth = section.periods.length * COLUMN + (section.periods.length - 1) * GAP;
    return { x: MARGIN + first * (COLUMN + GAP), width: spanWidth, name: section.name };
  });
  const sectionLabels = spans.map((span) => (span.name ? label(span.name, span.width, FONT.section, true) : undefined));
  const sectionHeight = Math.max(0, ...sectionLabels.map((found) => found?.height ?? 0));
  spans.forEach((span, index) => {
    const name = sectionLabels[index];
    if (!name) return;
    parts.push(
      `<g class="timeline-section">${rect(span.x, y, span.width, sectionHeight, 'var(--_group-hdr)', 'var(--_node-stroke)')}` +
        `${text(name.lines, span.x + span.width / 2, y + (sectionHeight - name.height) / 2 + BOX_PADDING, FONT.section, 600, 'var(--_text-sec)')}</g>`,
    );
  });
  if (sectionHeight > 0) y += sectionHeight + GAP;

  const periodLabels = periods.map((period) => label(period.label, COLUMN, FONT.period, false));
  const periodHeight = Math.max(...periodLabels.map((found) => found.height));
  const axis = y + periodHeight + 18;
  let bottom = axis + 8;
  periods.forEach((period, index) => {
    const x = MARGIN + index * (COLUMN + GAP);
    const middle = x + COLUMN / 2;
    const own = periodLabels[index]!;
    const boxes: string[] = [];
    let top = axis + 18;
    for (const event of period.events) {
      const found = label(event, COLUMN, FONT.event, false);
      boxes.push(
        `<g class="timeline-event">${rect(x, top, COLUMN, found.height, 'var(--_group-fill)', 'var(--_inner-stroke)')}` +
          `${text(found.lines, middle, top + BOX_PADDING, FONT.event, 400, 'var(--_text-sec)')}</g>`,
      );
      top += found.height + 8;
    }
    bottom = Math.max(bottom, top - 8);
    // Down to the last event, whose box (drawn after it) hides the part of the line it covers.
    const end = period.events.length > 0 ? top - 8 : axis;
    const line = `<line x1="${n(middle)}" y1="${n(y + periodHeight)}" x2="${n(middle)}" y2="${n(end)}" stroke="var(--_line)" stroke-width="1" stroke-dasharray="4 3"></line>`;
    parts.push(
      `<g class="timeline-period">${line}${rect(x, y, COLUMN, periodHeight, 'var(--_node-fill)', 'var(--_node-stroke)')}` +
        `${text(own.lines, middle, y + (periodHeight - own.height) / 2 + BOX_PADDING, FONT.period, 500, 'var(--_text)')}${boxes.join('')}</g>`,
    );
  });
  parts.push(
    `<line class="timeline-axis" x1="${MARGIN}" y1="${n(axis)}" x2="${n(width - MARGIN)}" y2="${n(axis)}" stroke="var(--_line)" stroke-width="1.5" marker-end="url(#arrowhead)"></line>`,
  );
  const height = n(bottom + MARGIN);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${n(width)} ${height}" width="${n(width)}" height="${height}">` +
    '<defs><marker id="arrowhead" markerWidth="8" markerHeight="5" refX="7" refY="2.5" orient="auto">' +
    '<polygon points="0 0, 8 2.5, 0 5" fill="var(--_arrow)"></polygon></marker></defs>' +
    `${parts.join('')}</svg>`
  );
}

function rect(x: number, y: number, width: number, height: number, fill: string, stroke: string): string {
  return `<rect x="${n(x)}" y="${n(y)}" width="${n(width)}" height="${n(height)}" rx="4" fill="${fill}" stroke="${stroke}" stroke-width="0.75"></rect>`;
}

/** Lines of text centred on `x`, the first line's top at `top`. */
function text(
  lines: string[],
  x: number,
  top: number,
  size: number,
  weight: number,
  fill: string,
  kind?: string,
): string {
  const step = size * LINE_HEIGHT;
  const attributes =
    `${kind ? ` class="${kind}"` : ''} x="${n(x)}" y="${n(top + step / 2)}" text-anchor="middle" dominant-baseline="central"` +
    ` font-size="${size}" font-weight="${weight}" fill="${fill}"`;
  if (lines.length === 1) return `<text${attributes}>${escapeHtml(lines[0]!)}</text>`;
  const spans = lines.map(
    (line, index) => `<tspan x="${n(x)}" dy="${index === 0 ? 0 : n(step)}">${escapeHtml(line)}</tspan>`,
  );
  return `<text${attributes}>${spans.join('')}</text>`;
}
