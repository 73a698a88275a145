import { Component, type ReactNode } from 'react';
import { describeChunkError, isChunkLoadError } from '../../shared/chunk-error';

interface Props {
  /** What the reader was trying to open, for the message: "Search could not be loaded". */
  what: string;
  onRetry: () => void;
  children: ReactNode;
}

/** Catches a lazy chunk that failed to load and offers Retry, leaving the rest of the page working. */
export class ChunkBoundary extends Component<Props, { error: unknown }> {
  override state: { error: unknown } = { error: undefined };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  override render() {
    const { error } = this.state;
    if (error === undefined) return this.props.children;
    const chunk = isChunkLoadError(error) ? error : undefined;
    return (
      <div className="chunk-error" role="alert" data-error-type={chunk?.type ?? 'unknown'}>
        <p>
          {this.props.what} could not be loaded. {chunk ? describeChunkError(chunk) : ''}
        </p>
        {chunk && (
          // The same detail as a page that failed: which chunk, why, and the file that did not arrive.
          <p className="error-detail">
            <code>{chunk.message}</code> <span>({chunk.type})</span> {chunk.request && <code>{chunk.request}</code>}
          </p>
        )}
        <button
          type="button"
          className="button"
          onClick={() => {
            this.setState({ error: undefined });
            this.props.onRetry();
          }}
        >
          Retry
        </button>
      </div>
    );
  }
}
