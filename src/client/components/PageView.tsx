import { useRef } from 'react';
import { useActiveHeading } from '../app/active-heading';
import { useCodeCopy } from '../app/code-copy';
import { useCodeGroups } from '../app/code-groups';
import { usePageHead } from '../app/head';
import type { ShardPage } from '../../shared/site-data';
import { useScreen } from '../data/screen';
import { PageFeedback } from './PageFeedback';
import { PageFooter } from './PageFooter';
import { CopyMarkdown } from './CopyMarkdown';
import { PrevNext } from './PrevNext';
import { TableOfContents } from './TableOfContents';

export function PageView({ page, html }: { page: ShardPage; html: string }) {
  const manifest = useScreen((s) => s.site);
  const content = useRef<HTMLDivElement>(null);
  const active = useActiveHeading(content, page.headers);
  usePageHead(manifest.site, page);
  useCodeCopy(content);
  useCodeGroups(content, html);

  return (
    <div className="page">
      <article className="article">
        <div
          ref={content}
          id="page-content"
          className="content"
          data-page-key={page.key}
          dangerouslySetInnerHTML={{ __html: html }}
        />
        <PageFooter page={page} />
        {manifest.site.feedback && (
          <PageFeedback
            key={page.path}
            route={page.path}
            endpoint={manifest.site.feedback.endpoint}
            deployment={manifest.hash}
            analyticsId={manifest.site.analyticsId}
          />
        )}
        <CopyMarkdown base={manifest.site.base} route={page.path} />
        <PrevNext neighbours={page.neighbours} base={manifest.site.base} />
      </article>
      <TableOfContents headers={page.headers} active={active} />
    </div>
  );
}
