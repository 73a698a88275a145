/** A mermaid timeline as its block says it (timeline-draw.ts draws it): periods in order, in sections. */
export interface Timeline {
  title?: string;
  sections: TimelineSection[];
}

export interface TimelineSection {
  /** Undefined for the periods written before any `section` line. */
  name?: string;
  periods: TimelinePeriod[];
}

export interface TimelinePeriod {
  label: string;
  events: string[];
}

/** What is wrong with a timeline block, and on which of its lines (0 for the first). */
export interface TimelineProblem {
  problem: string;
  line: number;
}

/** `period : event : event`: the colons that part a period from its events have a space after them. */
const EVENT_SEPARATOR = /\s*:(?:\s+|$)/;

/**
 * A block in mermaid's timeline syntax: a `timeline` line (or `timeline LR`, the one direction drawn), then
 * `title …`, `section …`, `period : event : event` and `: event` lines that add events to the period above.
 * Blank lines and those starting with `%%` or `#` are skipped; the accessible title and description are
 * blank here (diagram.ts takes them out first). Any other line is a problem at that line.
 */
export function parseTimeline(lines: readonly string[]): Timeline | TimelineProblem {
  const timeline: Timeline = { sections: [] };
  let header = false;
  let sectionLine = 0;
  let period: TimelinePeriod | undefined;
  for (const [index, raw] of lines.entries()) {
    const line = raw.trim();
    if (line === '' || line.startsWith('%%') || line.startsWith('#')) continue;
    if (!header) {
      if (!/^timeline(\s+LR)?$/i.test(line)) {
        return { problem: `a timeline is drawn left to right only: write "timeline" (found "${line}")`, line: index };
      }
      header = true;
      continue;
    }
    const keyword = /^(title|section)(?:\s+(.*))?$/i.exec(line);
    if (keyword) {
      const text = keyword[2]?.trim() ?? '';
      const name = keyword[1]!.toLowerCase();
      if (text === '') return { problem: `"${name}" needs its text on the same line`, line: index };
      if (name === 'title') {
        timeline.title = text;
        continue;
      }
      if (text.includes(':')) {
        return { problem: `a section's name cannot hold ":" (found "${text}")`, line: index };
      }
      const last = timeline.sections.at(-1);
      if (last?.name !== undefined && last.periods.length === 0) {
        return {
          problem: `section "${last.name}" has no period: add "period : event" lines under it`,
          line: sectionLine,
        };
      }
      timeline.sections.push({ name: text, periods: [] });
      sectionLine = index;
      period = undefined;
      continue;
    }
    const [label = '', ...events] = line.split(EVENT_SEPARATOR);
    if (label.includes(':')) {
      return { problem: `put a space after the ":" that starts an event (found "${line}")`, line: index };
    }
    if (events.some((event) => event === '')) {
      return { problem: `an event has no text after its ":" (found "${line}")`, line: index };
    }
    if (label === '') {
      if (!period) return { problem: 'an event needs a period before it: write "period : event"', line: index };
      period.events.push(...events);
      continue;
    }
    period = { label, events };
    if (timeline.sections.length === 0) timeline.sections.push({ periods: [] });
    timeline.sections.at(-1)!.periods.push(period);
  }
  const last = timeline.sections.at(-1);
  if (last?.name !== undefined && last.periods.length === 0) {
    return { problem: `section "${last.name}" has no period: add "period : event" lines under it`, line: sectionLine };
  }
  if (!timeline.sections.some((section) => section.periods.length > 0)) {
    return { problem: 'a timeline needs at least one "period : event" line', line: Math.max(0, firstLine(lines)) };
  }
  return timeline;
}

function firstLine(lines: readonly string[]): number {
  return lines.findIndex((line) => line.trim() !== '' && !line.trim().startsWith('%%'));
}
