/**
 * Pages of older sites that only send the reader elsewhere: a body that is nothing but a `<script>` calling
 * `this.$router.push('/x/')` (or `replace`), setting `location` / `location.href` (or calling
 * `location.replace`/`assign`), or a `<meta http-equiv="refresh">`. Such a page shows nothing here (scripts
 * do not run in pages), so the build turns it into a redirect instead of an empty page.
 */

/** The target as written, with the offset of the element that holds it in the body. */
export interface ClientRedirect {
  target: string;
  offset: number;
}

const QUOTED = String.raw`(?:'([^'\n]*)'|"([^"\n]*)"|\`([^\`\n]*)\`)`;
const SCRIPT_TARGETS = [
  new RegExp(String.raw`\$router\s*\.\s*(?:push|replace)\s*\(\s*${QUOTED}`),
  new RegExp(String.raw`\blocation(?:\s*\.\s*href)?\s*=\s*${QUOTED}`),
  new RegExp(String.raw`\blocation\s*\.\s*(?:replace|assign)\s*\(\s*${QUOTED}`),
];
const SCRIPT = /^<script\b[^>]*>([\s\S]*?)<\/script\s*>$/i;
const META = /^<meta\b[^>]*http-equiv\s*=\s*["']?refresh["']?[^>]*>$/i;
const META_URL = /content\s*=\s*["']\s*\d*\s*;?\s*url\s*=\s*([^"']+)["']/i;

/** The redirect a whole page body makes, or undefined when the body holds anything else. */
export function clientRedirect(body: string): ClientRedirect | undefined {
  const withoutComments = body.replace(/<!--[\s\S]*?-->/g, (c) => ' '.repeat(c.length));
  const trimmed = withoutComments.trim();
  if (trimmed === '') return undefined;
  const offset = withoutComments.indexOf(trimmed);
  const script = SCRIPT.exec(trimmed);
  if (script) {
    for (const pattern of SCRIPT_TARGETS) {
      const match = pattern.exec(script[1] ?? '');
      const target = match?.slice(1).find((group) => group !== undefined);
      if (target) return { target: target.trim(), offset };
    }
    return undefined;
  }
  if (META.test(trimmed)) {
    const url = META_URL.exec(trimmed)?.[1]?.trim();
    return url ? { target: url, offset } : undefined;
  }
  return undefined;
}
