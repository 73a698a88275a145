import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { contentHash } from '../content-hash';

/** A file under `dist/assets/`, by its path there. */
export interface MathAsset {
  path: string;
  data: Uint8Array;
}

/**
 * KaTeX's stylesheet and fonts as the site serves them, from the installed `katex` package: the fonts
 * under `assets/fonts/`, each named by its contents, and the stylesheet under `assets/css/`, pointing at
 * them. Only WOFF2 is kept, which every browser the app runs in reads: the WOFF and TrueType copies
 * would never load. Made once per process; `stylesheet` is its path under `assets/`.
 */
export interface MathAssets {
  stylesheet: string;
  files: MathAsset[];
}

let made: MathAssets | undefined;

export function mathAssets(): MathAssets {
  made ??= makeMathAssets();
  return made;
}

function makeMathAssets(): MathAssets {
  const dist = path.dirname(createRequire(import.meta.url).resolve('katex/dist/katex.min.css'));
  const files: MathAsset[] = [];
  const fontPath = new Map<string, string>();
  const fontOf = (name: string) => {
    let at = fontPath.get(name);
    if (at === undefined) {
      const data = readFileSync(path.join(dist, 'fonts', name));
      at = `fonts/${name.replace(/\.woff2$/, '')}.${contentHash(data)}.woff2`;
      fontPath.set(name, at);
      files.push({ path: at, data });
    }
    return at;
  };
  const css = readFileSync(path.join(dist, 'katex.min.css'), 'utf8')
    .replace(/,\s*url\(fonts\/[^)]+\.(?:woff|ttf)\) format\("(?:woff|truetype)"\)/g, '')
    .replace(/url\(fonts\/([^)]+\.woff2)\)/g, (_, name: string) => `url(../${fontOf(name)})`);
  // The app's stylesheet hides a formula's HTML until this one has loaded (math.css): shown again here.
  const data = new TextEncoder().encode(`${css}\n.katex .katex-html{display:inline}\n`);
  const stylesheet = `css/katex.${contentHash(data)}.css`;
  files.push({ path: stylesheet, data });
  return { stylesheet, files };
}
