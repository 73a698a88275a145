import Fuse from 'fuse.js';
import type { SearchData, SearchRecord } from '../../shared/types';
import { FUSE_KEYS, normalizeText, tokenize } from '../../shared/search-text';

export interface SearchHit {
  record: SearchRecord;
  score: number;
}

export interface SearchGroup {
  /** Page title. */
  title: string;
  hits: SearchHit[];
}

export interface SearchResults {
  groups: SearchGroup[];
  /** Normalised query words, for highlighting. */
  terms: string[];
  total: number;
}

const MAX_HITS = 24;

/**
 * Section search in two passes. Fuse does fuzzy matching on the short fields only (page title and
 * heading), from the index built ahead of time; a cheap prefix pass over every section's words finds
 * text matches. Ranking: exact title, then title, then heading, then text; hits are grouped by page.
 */
export class SearchEngine {
  private readonly fuse: Fuse<SearchRecord>;
  private readonly vocabulary: string[];
  private readonly postings: Uint32Array[];
  private readonly normalizedTitles: string[];

  constructor(private readonly data: SearchData) {
    const index = Fuse.parseIndex<SearchRecord>(data.index as Parameters<typeof Fuse.parseIndex>[0]);
    this.fuse = new Fuse(
      data.records,
      { keys: [...FUSE_KEYS], includeScore: true, threshold: 0.34, ignoreLocation: true, minMatchCharLength: 2 },
      index,
    );
    const byTerm = new Map<string, number[]>();
    data.records.forEach((record, id) => {
      for (const term of new Set(tokenize(`${record.t} ${record.h} ${record.x}`))) {
        let list = byTerm.get(term);
        if (!list) byTerm.set(term, (list = []));
        list.push(id);
      }
    });
    this.vocabulary = [...byTerm.keys()].sort();
    this.postings = this.vocabulary.map((term) => Uint32Array.from(byTerm.get(term) ?? []));
    this.normalizedTitles = data.records.map((r) => normalizeText(r.t));
  }

  get size(): number {
    return this.data.records.length;
  }

  search(query: string): SearchResults {
    const terms = tokenize(query);
    const normalizedQuery = normalizeText(query);
    if (terms.length === 0) return { groups: [], terms, total: 0 };
    const scores = new Map<number, number>();
    const add = (id: number, score: number) => scores.set(id, Math.max(scores.get(id) ?? 0, score));

    // Text pass: every query word must start some word of the section (the last word may be partial).
    let candidates: Map<number, number> | undefined;
    for (const term of terms) {
      const matched = new Map<number, number>();
      for (const [position, exact] of this.prefixRange(term)) {
        for (const id of this.postings[position] ?? [])
          matched.set(id, Math.max(matched.get(id) ?? 0, exact ? 1 : 0.8));
      }
      candidates = candidates
        ? new Map([...candidates].filter(([id]) => matched.has(id)).map(([id, s]) => [id, s + (matched.get(id) ?? 0)]))
        : matched;
    }
    for (const [id, strength] of candidates ?? []) add(id, 1 + strength / terms.length);

    // Fuzzy pass on titles and headings: typos of a letter or two still find the page.
    for (const result of this.fuse.search(normalizedQuery, { limit: 60 })) {
      const record = result.item;
      const closeness = 1 - (result.score ?? 1);
      const inHeading = normalizeText(record.h).includes(normalizedQuery);
      add(result.refIndex, 2 + closeness * 2 + (inHeading ? 0.5 : 0));
    }

    // Exact title and heading matches go first; a page's intro beats its sections on a title match.
    for (const [id, score] of scores) {
      const record = this.data.records[id];
      if (!record) continue;
      let bonus = 0;
      if (this.normalizedTitles[id] === normalizedQuery) bonus += record.l === 1 ? 6 : 5;
      else if (normalizeText(record.h) === normalizedQuery) bonus += 4.5;
      else if (terms.every((t) => this.normalizedTitles[id]?.includes(t))) bonus += record.l === 1 ? 1.5 : 1;
      scores.set(id, score + bonus);
    }

    const ranked = [...scores]
      .sort((a, b) => b[1] - a[1] || a[0] - b[0])
      .slice(0, MAX_HITS)
      .flatMap(([id, score]) => {
        const record = this.data.records[id];
        return record ? [{ record, score }] : [];
      });
    const groups = new Map<string, SearchGroup>();
    for (const hit of ranked) {
      const page = hit.record.u.replace(/#.*$/, '');
      let group = groups.get(page);
      if (!group) groups.set(page, (group = { title: hit.record.t, hits: [] }));
      group.hits.push(hit);
    }
    return { groups: [...groups.values()], terms, total: ranked.length };
  }

  /** Vocabulary positions of words starting with the term, with whether each is the whole word. */
  private *prefixRange(term: string): Generator<[number, boolean]> {
    let low = 0;
    let high = this.vocabulary.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if ((this.vocabulary[mid] ?? '') < term) low = mid + 1;
      else high = mid;
    }
    for (let i = low; i < this.vocabulary.length && this.vocabulary[i]?.startsWith(term); i++) {
      yield [i, this.vocabulary[i] === term];
    }
  }
}
