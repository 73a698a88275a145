import { memo } from 'react';
import { dismissAnnouncement } from '../app/announcement';
import type { Announcement } from '../../shared/types';

/**
 * The site's announcement under the header, prerendered in every document so nothing moves when the app
 * starts. Dismissing it hides it through the <html> attribute the boot script also sets, so the markup
 * is the same whether or not it was dismissed, and hydration never differs from the prerender. The same on
 * every page: a navigation does not render it again (`memo`).
 */
export const AnnouncementBar = memo(function AnnouncementBar({ announcement }: { announcement: Announcement }) {
  const text = <span dangerouslySetInnerHTML={{ __html: announcement.html }} />;
  return (
    <aside className="announcement" aria-label="Announcement">
      {announcement.link ? (
        <a className="announcement-text" href={announcement.link}>
          {text}
        </a>
      ) : (
        <p className="announcement-text">{text}</p>
      )}
      <button
        type="button"
        className="announcement-close"
        aria-label="Dismiss announcement"
        onClick={() => dismissAnnouncement(announcement.id)}
      >
        <span aria-hidden="true">×</span>
      </button>
    </aside>
  );
});
