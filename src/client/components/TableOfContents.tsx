import type { PageHeader } from '../../shared/types';

/** The on-page table of contents (h2/h3), shown beside the content on wide screens. */
export function TableOfContents({ headers, active }: { headers: PageHeader[]; active: string }) {
  if (headers.length === 0) return <aside className="toc" aria-hidden="true" />;
  return (
    <aside className="toc">
      <nav aria-label="On this page">
        <p className="toc-title">On this page</p>
        <ul>
          {headers.map((h) => (
            <li key={h.slug} className={h.level === 3 ? 'toc-h3' : undefined}>
              <a
                href={`#${h.slug}`}
                data-toc-link=""
                className={h.slug === active ? 'active' : undefined}
                aria-current={h.slug === active ? 'location' : undefined}
              >
                {h.title}
              </a>
            </li>
          ))}
        </ul>
      </nav>
    </aside>
  );
}
