import { useState } from 'react';
import { markdownTwinPath, withBase } from '../../shared/paths';

/**
 * "Copy page as Markdown": the page's markdown twin (written by the build next to its folder), for pasting
 * into an AI assistant or an issue. The label says how it went.
 */
export function CopyMarkdown({ base, route }: { base: string; route: string }) {
  const [state, setState] = useState<{ route: string; label: string }>({ route, label: '' });
  const url = withBase(base, markdownTwinPath(route));
  const label = state.route === route && state.label ? state.label : 'Copy page as Markdown';

  const copy = async () => {
    try {
      const response = await fetch(url);
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      await navigator.clipboard.writeText(await response.text());
      setState({ route, label: 'Copied' });
    } catch {
      setState({ route, label: 'Copy failed: try again' });
    }
  };

  return (
    <div className="page-actions">
      <button type="button" className="copy-markdown" onClick={() => void copy()}>
        {label}
      </button>
      <span className="visually-hidden" role="status">
        {label === 'Copy page as Markdown' ? '' : label}
      </span>
    </div>
  );
}
