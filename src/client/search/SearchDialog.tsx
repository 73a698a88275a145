import { useSuspenseQuery } from '@tanstack/react-query';
import { useRouter } from '@tanstack/react-router';
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { describeChunkError } from '../../shared/chunk-error';
import { ChunkLoadError } from '../../shared/chunk-error';
import { track } from '../app/analytics';
import { navigateTo } from '../app/links';
import { manifestQuery } from '../data/queries';
import { useUi } from '../data/store';
import type { SearchResults } from './engine';
import { Highlight } from './Highlight';
import { getSearchClient } from './search-client-instance';
import type { IndexState } from './search-client';

const EMPTY: SearchResults = { groups: [], terms: [], total: 0 };

/** The search dialog: a combobox over grouped section results, operable entirely by keyboard. */
export default function SearchDialog({ onClose }: { onClose: () => void }) {
  const { data: manifest } = useSuspenseQuery(manifestQuery());
  const router = useRouter();
  const announce = useUi((s) => s.announce);
  const client = useMemo(() => getSearchClient(manifest), [manifest]);
  const [index, setIndex] = useState<IndexState>({ status: 'loading' });
  const [query, setQuery] = useState('');
  const [results, setResults] = useState<SearchResults>(EMPTY);
  const [selected, setSelected] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  const listId = useId();
  const titleId = useId();

  useEffect(() => client.subscribe(setIndex), [client]);
  useEffect(() => {
    client.load();
    input.current?.focus();
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    return () => previous?.focus({ preventScroll: true });
  }, [client]);

  useEffect(() => {
    if (index.status !== 'ready' || query.trim() === '') return;
    client.query(query, (next) => {
      setResults(next);
      setSelected(0);
      announce(next.total === 0 ? 'No results' : `${next.total} result${next.total === 1 ? '' : 's'}`);
    });
  }, [client, index.status, query, announce]);

  // Results of an older query are never shown for an empty query or while the index is unavailable.
  const shown = index.status === 'ready' && query.trim() !== '' ? results : EMPTY;
  const flat = shown.groups.flatMap((g) => g.hits);
  const firstPositions = shown.groups.map((_, i) => shown.groups.slice(0, i).reduce((n, g) => n + g.hits.length, 0));
  const open = (position: number) => {
    const hit = flat[position];
    if (!hit) return;
    track('search', { query, result: hit.record.u });
    onClose();
    navigateTo(router, hit.record.u);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (flat.length === 0) return;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setSelected((s) => (s + step + flat.length) % flat.length);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      open(selected);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      onClose();
    } else if (event.key === 'Tab') {
      event.preventDefault(); // focus stays in the dialog; results are reached with the arrow keys
    }
  };

  useEffect(() => {
    document.getElementById(`${listId}-${selected}`)?.scrollIntoView({ block: 'nearest' });
  }, [listId, selected]);

  return (
    <div className="search-overlay" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div className="search-dialog" role="dialog" aria-modal="true" aria-labelledby={titleId}>
        <h2 id={titleId} className="visually-hidden">
          Search the documentation
        </h2>
        <div className="search-field">
          <input
            ref={input}
            type="search"
            role="combobox"
            aria-expanded={flat.length > 0}
            aria-controls={listId}
            aria-autocomplete="list"
            aria-activedescendant={flat.length > 0 ? `${listId}-${selected}` : undefined}
            aria-label="Search the documentation"
            placeholder="Search the docs"
            autoComplete="off"
            spellCheck={false}
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            onKeyDown={onKeyDown}
          />
          <button type="button" className="search-close" onClick={onClose}>
            Close
          </button>
        </div>
        <div className="search-body">
          {index.status === 'failed' ? (
            <div className="search-state search-failed" role="alert">
              <p>
                The search index could not be loaded.{' '}
                {describeChunkError(new ChunkLoadError('search', index.errorType, index.request))}
              </p>
              <button type="button" className="button" onClick={() => client.load()}>
                Retry
              </button>
            </div>
          ) : index.status === 'loading' && query ? (
            <p className="search-state">Loading the search index…</p>
          ) : query.trim() === '' ? (
            <p className="search-state">Type to search every page and section.</p>
          ) : shown.total === 0 && index.status === 'ready' ? (
            <p className="search-state">
              No results for “<strong>{query}</strong>”.
            </p>
          ) : null}
          <ul id={listId} role="listbox" aria-label="Search results" className="search-results">
            {shown.groups.map((group, groupIndex) => (
              <li key={group.title + (group.hits[0]?.record.u ?? '')} role="presentation" className="search-group">
                <p className="search-group-title" role="presentation">
                  {group.title}
                </p>
                <ul role="presentation">
                  {group.hits.map((hit, hitIndex) => {
                    const mine = (firstPositions[groupIndex] ?? 0) + hitIndex;
                    return (
                      <li
                        key={hit.record.u}
                        id={`${listId}-${mine}`}
                        role="option"
                        aria-selected={mine === selected}
                        className={mine === selected ? 'search-hit selected' : 'search-hit'}
                        onMouseMove={() => setSelected(mine)}
                        onClick={() => open(mine)}
                      >
                        <span className="search-hit-heading">
                          <Highlight text={hit.record.h || hit.record.t} terms={shown.terms} />
                        </span>
                        <span className="search-hit-excerpt">
                          <Highlight text={hit.record.x} terms={shown.terms} />
                        </span>
                      </li>
                    );
                  })}
                </ul>
              </li>
            ))}
          </ul>
        </div>
      </div>
    </div>
  );
}
