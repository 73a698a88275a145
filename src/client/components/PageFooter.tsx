import type { PageMeta } from '../../shared/types';

/**
 * The date is written in UTC and in one locale, so the prerendered HTML and the hydrated page print the
 * same text wherever the reader is.
 */
const DATE = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });

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
          Last updated: <time dateTime={page.lastUpdated}>{DATE.format(new Date(page.lastUpdated))}</time>
        </p>
      )}
    </div>
  );
}
