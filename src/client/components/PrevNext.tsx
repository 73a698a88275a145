import { withBase } from '../../shared/paths';
import type { Neighbours } from '../../shared/navigation';

export function PrevNext({ neighbours, base }: { neighbours: Neighbours; base: string }) {
  const { prev, next } = neighbours;
  if (!prev && !next) return null;
  return (
    <nav className="prev-next" aria-label="Previous and next pages">
      {prev ? (
        <a className="prev" href={withBase(base, prev.link)} rel="prev">
          <span className="prev-next-label">Previous</span>
          <span className="prev-next-title">{prev.text}</span>
        </a>
      ) : (
        <span />
      )}
      {next && (
        <a className="next" href={withBase(base, next.link)} rel="next">
          <span className="prev-next-label">Next</span>
          <span className="prev-next-title">{next.text}</span>
        </a>
      )}
    </nav>
  );
}
