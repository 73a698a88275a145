import type { PageMeta } from '../../shared/types';
import { longUtcDate } from './date-text';

/** "Edit this page" and "Last updated", each only when the site configures it (see page-history.ts). */
export function PageFooter({ page }: { page: PageMeta }) {
  if (!page.editLink && !page.lastUpdated) return null;
  return (
    <div className="page-footer">
      {page.editLink && (
        <a className="edit-link" href={page.editLink} rel="noopener">
          Edit this page
        </a>
      )}
      {page.lastUpdated && (
        <p className="last-updated">
          Last updated: <time dateTime={page.lastUpdated}>{longUtcDate(page.lastUpdated)}</time>
        </p>
      )}
    </div>
  );
}
