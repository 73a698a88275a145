import { useSuspenseQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { useMemo, useRef } from 'react';
import { neighboursOf } from '../../shared/navigation';
import { indexManifest } from '../../shared/resolve';
import { useActiveHeading } from '../app/active-heading';
import { useCodeCopy } from '../app/code-copy';
import { useCodeGroups } from '../app/code-groups';
import { usePageHead } from '../app/head';
import { manifestQuery } from '../data/queries';
import { CopyMarkdown } from './CopyMarkdown';
import { PrevNext } from './PrevNext';
import { TableOfContents } from './TableOfContents';

const route = getRouteApi('/$');

export function PageView() {
  const { page, html } = route.useLoaderData();
  const { data: manifest } = useSuspenseQuery(manifestQuery());
  const content = useRef<HTMLDivElement>(null);
  const neighbours = useMemo(() => neighboursOf(page, indexManifest(manifest)), [manifest, page]);
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
        <CopyMarkdown base={manifest.site.base} route={page.path} />
        <PrevNext neighbours={neighbours} base={manifest.site.base} />
      </article>
      <TableOfContents headers={page.headers} active={active} />
    </div>
  );
}
