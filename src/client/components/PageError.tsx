import { useEffect, useRef } from 'react';
import { describeChunkError, isChunkLoadError } from '../../shared/chunk-error';
import { focusInDialog } from '../app/focus';

/** A page that failed to load: what failed, why in plain words, and a Retry that works. */
export function PageError({ error, retry }: { error: unknown; retry: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  // Focus moves to what failed, unless the reader is in search meanwhile.
  useEffect(() => {
    if (!focusInDialog()) heading.current?.focus({ preventScroll: true });
  }, []);
  const chunk = isChunkLoadError(error) ? error : undefined;
  // A request that got no answer while the browser knows it is offline: say so, and that it is only this
  // page (pages already opened this visit, and search, keep working without the network).
  const offline =
    chunk?.type === 'error' && chunk.status === undefined && typeof navigator !== 'undefined' && !navigator.onLine;
  return (
    <div className="page">
      <article className="article">
        <div className="content page-error" role="alert" data-error-type={chunk?.type ?? 'unknown'}>
          <h1 ref={heading} tabIndex={-1}>
            This page could not be loaded
          </h1>
          <p>
            {offline
              ? 'You are offline, and this page needs the network to load. Pages you have already opened still work; press Retry once you are back online.'
              : chunk
                ? describeChunkError(chunk)
                : 'Something went wrong while showing this page.'}
          </p>
          {chunk && (
            <p className="error-detail">
              <code>{chunk.message}</code> <span>({chunk.type})</span> <code>{chunk.request}</code>
            </p>
          )}
          <p>
            <button type="button" className="button" onClick={retry}>
              Retry
            </button>
          </p>
        </div>
      </article>
    </div>
  );
}
