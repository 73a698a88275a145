import { useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { ChunkLoadError, describeChunkError } from '../../shared/chunk-error';
import { withBase } from '../../shared/paths';
import { useTrack } from '../app/analytics';
import { pageHeading } from '../app/focus';
import { followNewDeployment, navigate } from '../app/navigation-loader';
import { earlyQuery, earlyQueryShown } from '../app/search-shortcut';
import { useScreen } from '../data/screen';
import type { SearchResults } from './results';
import { Highlight } from './Highlight';
import { searchClientFor } from './search-client-instance';
import type { IndexState } from './search-client';

const EMPTY: SearchResults = { groups: [], terms: [], total: 0 };

const FOCUSABLE = 'input, button, [tabindex="0"]';
/**
 * A query not answered by then says it is still searching (its shards are on their way). Most answers
 * come sooner, and a status that changed on every keystroke would only be noise to a screen reader.
 */
const SEARCHING_AFTER_MS = 300;

/**
 * The search dialog: a combobox over results grouped by page, operable entirely by keyboard. Queries
 * run in the search worker; the dialog only draws the newest answer.
 */
export default function SearchDialog({ onClose }: { onClose: () => void }) {
  const manifest = useScreen((s) => s.site);
  const track = useTrack(manifest.site.analyticsId);
  const client = searchClientFor(manifest);
  const [index, setIndex] = useState<IndexState>({ status: 'loading' });
  // What the reader typed before the dialog was there (app/search-shortcut.ts) is its first query, the same
  // for a render React throws away and does again.
  const [query, setQuery] = useState(earlyQuery);
  const [answer, setAnswer] = useState<{ query: string; results: SearchResults; first?: boolean }>({
    query: '',
    results: EMPTY,
  });
  const [selected, setSelected] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  const box = useRef<HTMLDivElement>(null);
  const listId = useId();
  const titleId = useId();

  useEffect(() => client.subscribe(setIndex), [client]);

  // The dialog is there with its first query: a dialog opened later starts from what is typed by then.
  useLayoutEffect(earlyQueryShown, []);

  // Focus moves into the dialog and back to where it was when the dialog closes, or to the page's heading
  // when that is gone (a link of the page the reader left while searching). The element is taken before
  // the input is focused (layout effect), or the input itself would be "where it was".
  useLayoutEffect(() => {
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    input.current?.focus();
    return () => {
      const back = previous?.isConnected ? previous : pageHeading();
      back?.focus({ preventScroll: true });
    };
  }, []);

  useEffect(() => client.load(), [client]);

  // Search files that are gone mean a new deployment replaced them, as for a page's fragment: the tab
  // switches to it, and this dialog to its search data. With no new deployment the failure stays shown.
  useEffect(() => {
    if (index.status !== 'failed' || index.errorType !== 'missing') return;
    const stop = new AbortController();
    followNewDeployment(stop.signal).catch(() => undefined);
    return () => stop.abort();
  }, [index]);

  useEffect(() => {
    if (index.status !== 'ready' || query.trim() === '') return;
    let topShown = false;
    client.query(query, (results, _ms, first) => {
      setAnswer({ query, results, first });
      // A new list starts at its top; the whole list that follows its top keeps the reader's selection.
      if (!topShown) setSelected(0);
      topShown ||= first;
    });
  }, [client, index.status, query]);

  const [waited, setWaited] = useState('');
  useEffect(() => {
    if (index.status !== 'ready' || query.trim() === '') return;
    const timer = setTimeout(() => setWaited(query), SEARCHING_AFTER_MS);
    return () => clearTimeout(timer);
  }, [index.status, query]);

  // Nothing from an older query is shown for an empty query or while the index is unavailable.
  const shown = index.status === 'ready' && query.trim() !== '' && answer.query !== '' ? answer.results : EMPTY;
  // The count is announced for the whole list, not its top.
  const answered = index.status === 'ready' && query.trim() !== '' && answer.query === query && !answer.first;
  const searching = index.status === 'ready' && !answered && waited === query && query.trim() !== '';
  const flat = shown.groups.flatMap((g) => g.hits);
  const firstPositions = shown.groups.map((_, i) => shown.groups.slice(0, i).reduce((n, g) => n + g.hits.length, 0));
  const expanded = flat.length > 0;

  const open = (position: number) => {
    const hit = flat[position];
    if (!hit) return;
    track('search', { query, result: hit.u });
    onClose();
    navigate(hit.u);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      onClose();
    } else if (event.key === 'Tab') {
      // Focus stays in the dialog, going round its field, buttons and the scrollable results.
      event.preventDefault();
      const stops = [...(box.current?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? [])];
      const at = stops.indexOf(document.activeElement as HTMLElement);
      stops[(at + (event.shiftKey ? -1 : 1) + stops.length) % stops.length]?.focus();
    } else if (event.target === input.current && (event.key === 'ArrowDown' || event.key === 'ArrowUp')) {
      event.preventDefault();
      if (flat.length === 0) return;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setSelected((s) => (s + step + flat.length) % flat.length);
    } else if (event.target === input.current && event.key === 'Enter') {
      event.preventDefault();
      open(selected);
    }
  };

  useEffect(() => {
    document.getElementById(`${listId}-${selected}`)?.scrollIntoView({ block: 'nearest' });
  }, [listId, selected, shown]);

  const status =
    index.status === 'failed'
      ? 'The search index could not be loaded.'
      : index.status === 'loading' && query.trim() !== ''
        ? 'Loading the search index…'
        : answered
          ? shown.total === 0
            ? 'No results'
            : `${shown.total} result${shown.total === 1 ? '' : 's'}`
          : searching
            ? 'Searching…'
            : '';

  return (
    <div className="search-overlay" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div
        ref={box}
        className="search-dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        onKeyDown={onKeyDown}
      >
        <h2 id={titleId} className="visually-hidden">
          Search the documentation
        </h2>
        {/* Inside the modal dialog, so screen readers that silence the page behind it still hear the count. */}
        <p className="visually-hidden" role="status" aria-live="polite" aria-atomic="true">
          {status}
        </p>
        <div className="search-field">
          <input
            ref={input}
            type="search"
            role="combobox"
            aria-expanded={expanded}
            aria-controls={expanded ? listId : undefined}
            aria-autocomplete="list"
            aria-activedescendant={expanded ? `${listId}-${selected}` : undefined}
            aria-label="Search the documentation"
            placeholder="Search the docs"
            autoComplete="off"
            spellCheck={false}
            enterKeyHint="go"
            maxLength={200}
            value={query}
            onChange={(e) => setQuery(e.target.value)}
          />
          <button type="button" className="search-close" onClick={onClose}>
            Close
          </button>
        </div>
        {/* Focusable, so the results can be scrolled from the keyboard when they do not fit. */}
        <div className="search-body" tabIndex={0} role="region" aria-label="Search results">
          {index.status === 'failed' ? (
            <div className="search-state search-failed" role="alert">
              <p>
                The search index could not be loaded.{' '}
                {describeChunkError(new ChunkLoadError('search', index.errorType, index.request, index.httpStatus))}
              </p>
              <button type="button" className="button" onClick={() => client.load()}>
                Retry
              </button>
            </div>
          ) : index.status === 'loading' && query.trim() !== '' ? (
            <p className="search-state">Loading the search index…</p>
          ) : query.trim() === '' ? (
            <p className="search-state search-empty">Type to search every page and section.</p>
          ) : searching && shown.total === 0 ? (
            <p className="search-state search-searching">Searching…</p>
          ) : answered && shown.total === 0 ? (
            <p className="search-state search-none">
              No results for “<strong>{query}</strong>”.
            </p>
          ) : null}
          {expanded && (
            <ul id={listId} role="listbox" aria-label="Matching sections" className="search-results">
              {shown.groups.map((group, groupIndex) => (
                <li key={group.url} role="group" aria-label={group.title} className="search-group">
                  <p className="search-group-title" aria-hidden="true">
                    {group.title}
                  </p>
                  <ul role="presentation">
                    {group.hits.map((hit, hitIndex) => {
                      const position = (firstPositions[groupIndex] ?? 0) + hitIndex;
                      // A real link (middle-click, Ctrl/⌘-click, "copy link", the status bar) that is also
                      // the listbox option: the combobox keeps focus and points at it.
                      return (
                        <li key={hit.u} role="presentation">
                          <a
                            id={`${listId}-${position}`}
                            role="option"
                            aria-selected={position === selected}
                            className={position === selected ? 'search-hit selected' : 'search-hit'}
                            href={withBase(manifest.site.base, hit.u)}
                            tabIndex={-1}
                            data-url={hit.u}
                            onMouseMove={() => setSelected(position)}
                            onClick={(event) => {
                              if (
                                event.button !== 0 ||
                                event.metaKey ||
                                event.ctrlKey ||
                                event.shiftKey ||
                                event.altKey
                              )
                                return;
                              event.preventDefault();
                              open(position);
                            }}
                          >
                            <span className="search-hit-heading">
                              <Highlight text={hit.h || hit.t} terms={shown.terms} />
                            </span>
                            <span className="search-hit-excerpt">
                              <Highlight text={hit.x} terms={shown.terms} />
                            </span>
                          </a>
                        </li>
                      );
                    })}
                  </ul>
                </li>
              ))}
            </ul>
          )}
        </div>
      </div>
    </div>
  );
}
