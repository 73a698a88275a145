/**
 * Sentences that send the reader to the limits page for a figure it doesn't state: the page's summary table
 * is the list of figures it has, and every pointer must be for one of them.
 */

import { decodeEntities, proseBlocks } from './prose';

/**
 * A kind of limit a sentence may send the reader to the limits page for. `mention` finds it in a sentence,
 * `row` finds the summary-table row that states it. A `qualified` topic is about one thing among several
 * (retention of inspector events, not of source logs): the row's own subject words, such as "Inspector", must
 * also appear in the paragraph that points at it.
 */
interface LimitTopic {
  name: string;
  mention: RegExp;
  row: RegExp;
  qualified?: boolean;
}

const LIMIT_TOPICS: LimitTopic[] = [
  {
    name: 'execution timeout',
    mention: /\btime ?outs?\b|\btime limits?\b|\bexecution time\b/i,
    row: /\btime ?out|\btime limit/i,
  },
  { name: 'rate limits', mention: /\brate limit(s|ed|ing)?\b|\brequest rates?\b/i, row: /\brate\b/i },
  {
    name: 'retention',
    mention: /\bretention\b|\bretained\b|\bkept\b|\bage(s)? out\b/i,
    row: /\bretention\b/i,
    qualified: true,
  },
  { name: 'memory', mention: /\bmemory\b/i, row: /\bmemory\b/i },
  { name: 'payload size', mention: /\bpayloads?\b/i, row: /\bpayload\b/i },
  {
    name: 'temporary storage',
    mention: /\/tmp\b|\btemporary storage\b|\bdisk space\b/i,
    row: /\/tmp\b|\btemporary storage\b/i,
  },
  { name: 'invocations', mention: /\binvocations?\b/i, row: /\binvocations\b/i },
  { name: 'queue size', mention: /\bqueues?\b/i, row: /\bqueue\b/i },
  { name: 'concurrency', mention: /\bconcurren(cy|t)\b/i, row: /\bconcurren/i },
  { name: 'configured props', mention: /\bprops\b/i, row: /\bprops\b/i },
  { name: 'runtime versions', mention: /\bruntime versions?\b|\blanguage versions?\b/i, row: /\bversion\b/i },
];

/** Words of a row label that say which of several figures it is, not what it is about. */
const GENERIC = new Set(['default', 'maximum', 'max', 'size', 'daily', 'free', 'orgs', 'per', 'of', 'the', 'and']);

/** A figure the limits page states: its summary-table row label, with a number in its value cell. */
interface LimitRow {
  label: string;
  value: string;
}

/** Does this sentence send the reader to the limits page (a link to it, or its name)? */
function pointsAtLimits(sentence: string, base: string): boolean {
  return sentence.includes(`⟦${base}limits/`) || /\blimits page\b/i.test(sentence);
}

/** The rows of the limits page's summary table whose value holds a figure. */
export function limitRows(limitsHtml: string): LimitRow[] {
  const table = /<table\b[\s\S]*?<\/table>/.exec(limitsHtml)?.[0] ?? '';
  return [...table.matchAll(/<tr\b[^>]*>([\s\S]*?)<\/tr>/g)]
    .map((row) => [...(row[1] ?? '').matchAll(/<td\b[^>]*>([\s\S]*?)<\/td>/g)].map((td) => strip(td[1] ?? '')))
    .filter((cells) => cells.length >= 2 && /\d/.test(cells[1] ?? ''))
    .map(([label, value]) => ({ label: label ?? '', value: value ?? '' }));
}

function strip(html: string): string {
  return decodeEntities(
    html
      .replace(/<[^>]+>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim(),
  );
}

function covers(topic: LimitTopic, row: LimitRow, paragraph: string): boolean {
  if (!topic.row.test(row.label)) return false;
  if (!topic.qualified) return true;
  const subject = row.label
    .toLowerCase()
    .split(/[^a-z0-9./]+/)
    .filter((word) => word && !GENERIC.has(word) && !topic.row.test(word));
  return subject.every((word) => new RegExp(`\\b${word.replace(/[.]/g, '\\.')}`, 'i').test(paragraph));
}

/**
 * Every sentence, outside the limits page itself, that sends the reader to the limits page for a kind of
 * limit that page states no figure for. `pages` maps a route to its rendered fragment.
 */
export function danglingLimitPointers(pages: Record<string, string>, base: string): string[] {
  const rows = limitRows(pages['/limits/'] ?? '');
  const problems: string[] = [];
  for (const [route, html] of Object.entries(pages)) {
    if (route === '/limits/') continue;
    for (const paragraph of proseBlocks(html)) {
      for (const sentence of paragraph.split(/(?<=[.!?])\s+(?=[A-Z[`(])/)) {
        if (!pointsAtLimits(sentence, base)) continue;
        const text = sentence.replace(/⟦[^⟧]*⟧/g, '');
        for (const topic of LIMIT_TOPICS) {
          if (!topic.mention.test(text)) continue;
          if (rows.some((row) => covers(topic, row, paragraph.replace(/⟦[^⟧]*⟧/g, '')))) continue;
          problems.push(
            `${route}: "${text}" sends the reader to the limits page for ${topic.name}, which it lists no figure for`,
          );
        }
      }
    }
  }
  return problems;
}
