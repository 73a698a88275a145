import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The Vue components of `.vuepress/components/` (VuePress registers each file by its name, in PascalCase
 * and kebab-case alike). Those whose template is plain HTML, with no binding, directive, slot or other
 * component in it, show the same thing on every page: the import puts that HTML where they were used.
 */

export interface ComponentFile {
  name: string;
  /** Path relative to the source folder. */
  file: string;
  /** The template's HTML when it is static, else undefined. */
  staticHtml?: string;
}

/** `my-card` and `MyCard` alike → `mycard`, the key components are looked up by. */
export function componentKey(name: string): string {
  return name.replace(/-/g, '').toLowerCase();
}

export function readComponents(sourceDir: string, componentsDir: string): Map<string, ComponentFile> {
  const found = new Map<string, ComponentFile>();
  const walk = (dir: string) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.vue')) {
        const name = entry.name.slice(0, -4);
        const file = path.relative(sourceDir, full).split(path.sep).join('/');
        const html = staticTemplate(readFileSync(full, 'utf8'));
        found.set(componentKey(name), { name, file, ...(html === undefined ? {} : { staticHtml: html }) });
      }
    }
  };
  walk(componentsDir);
  return found;
}

/** `{{ }}`, `v-…`, `:prop`, `@event`, `#slot` attributes, `<slot>` and other components. */
const DYNAMIC = /\{\{|\s(?:v-[\w-]+|[:@#][\w.-]+)(?:\s*=|[\s/>])|<slot\b|<[A-Z]|<[a-z]+-[a-z-]*[\s/>]/;

/** The template's inner HTML when it has no dynamic part, else undefined. */
export function staticTemplate(vue: string): string | undefined {
  const open = /<template(\s[^>]*)?>/.exec(vue);
  if (!open || /\blang\s*=/.test(open[1] ?? '')) return undefined;
  const start = open.index + open[0].length;
  const end = vue.lastIndexOf('</template>');
  if (end < start) return undefined;
  const html = vue.slice(start, end).trim();
  return html === '' || DYNAMIC.test(html) ? undefined : html;
}
