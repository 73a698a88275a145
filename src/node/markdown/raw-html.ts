import type { AssetKind } from './assets';
import { decodeEntities, escapeHtml } from './escape';
import { droppedAttribute, droppedElement } from './sanitize';

/**
 * A light scan of a raw HTML token's opening tags and attributes, with their offsets, so the analysis walk
 * can point a writer at what the sanitizer will drop and rewrite the URLs they wrote. It is not the safety
 * boundary: the fragment still goes through sanitize-html, whatever this scan makes of odd markup.
 */

export interface RawAttribute {
  /** Lower-cased, as the HTML parser of the sanitizer reads it. */
  name: string;
  /** The value with its quotes removed, entities not decoded; '' when the attribute has none. */
  value: string;
  /** Offset of the attribute name in the scanned text. */
  offset: number;
  /** Span of the value as written, quotes included; both equal the name's end when there is no value. */
  valueStart: number;
  valueEnd: number;
}

export interface RawTag {
  name: string;
  offset: number;
  attributes: RawAttribute[];
}

// Comments, CDATA, doctypes and end tags are skipped whole; group 1 and 2 are a start tag's name and body.
const MARKUP =
  /<!--[\s\S]*?(?:--!?>|$)|<!\[CDATA\[[\s\S]*?(?:\]\]>|$)|<[!?/][^>]*>?|<([a-zA-Z][^\s/>]*)((?:[^>"']|"[^"]*"|'[^']*')*)>?/g;
const ATTRIBUTE = /([^\s"'>/=]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s"'=<>`]+))?/g;
/** Elements whose content the parser reads as text: tags inside them are not tags. */
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'xmp', 'title']);

/** The opening tags of a raw HTML snippet, in order. */
export function openingTags(html: string): RawTag[] {
  const tags: RawTag[] = [];
  const markup = new RegExp(MARKUP.source, 'g');
  for (let match = markup.exec(html); match; match = markup.exec(html)) {
    const [, rawName, body = ''] = match;
    if (rawName === undefined) continue;
    const name = rawName.toLowerCase();
    const bodyStart = match.index + 1 + rawName.length;
    tags.push({ name, offset: match.index, attributes: attributesOf(body, bodyStart) });
    if (RAW_TEXT.has(name)) {
      const end = html.toLowerCase().indexOf(`</${name}`, markup.lastIndex);
      markup.lastIndex = end < 0 ? html.length : end;
    }
  }
  return tags;
}

function attributesOf(body: string, bodyStart: number): RawAttribute[] {
  const attributes: RawAttribute[] = [];
  for (const match of body.matchAll(ATTRIBUTE)) {
    const [whole, name = '', written] = match;
    const offset = bodyStart + match.index;
    const valueEnd = offset + whole.length;
    const valueStart = written === undefined ? valueEnd : valueEnd - written.length;
    const value = written === undefined ? '' : /^["']/.test(written) ? written.slice(1, -1) : written;
    attributes.push({ name: name.toLowerCase(), value, offset, valueStart, valueEnd });
  }
  return attributes;
}

/** What the raw HTML check needs from the analysis walk; offsets are the token's plus the offset in it. */
export interface RawHtmlHooks {
  warn(offset: number, message: string): void;
  /** True when an iframe with this `src` is kept (see embeds.ts); any other becomes a link to its URL. */
  embed(src: string): boolean;
  /** The URL to print for one written in an attribute, or null when it resolves nowhere (already reported). */
  url(kind: 'link' | AssetKind, written: string, offset: number): string | null;
}

const DROPPED_ELEMENTS = /<(script|style)\b[\s\S]*?(?:<\/\1\s*>|$)|<(script|style)\b[^>]*\/?>/gi;

/** The URL attributes of raw HTML that are checked and rewritten like markdown links and images. */
const RAW_URLS = new Map<string, 'link' | AssetKind>([
  ['a href', 'link'],
  ['img src', 'image'],
  ['video poster', 'image'],
  ['video src', 'file'],
  ['audio src', 'file'],
  ['source src', 'file'],
]);

/**
 * Raw HTML passes through the sanitizer, which drops what is not on its allowlist without a word: this names
 * each dropped element and attribute where it was written, rewrites the URLs of links, images and media as
 * markdown ones are, and removes `<script>` and `<style>`. Returns the HTML to render.
 */
export function checkRawHtml(html: string, offset: number, hooks: RawHtmlHooks): string {
  const edits: { start: number; end: number; text: string }[] = [];
  for (const tag of openingTags(html)) {
    if (tag.name === 'script' || tag.name === 'style') continue; // removed below, with a warning of their own
    if (tag.name === 'iframe') {
      // The sanitizer rebuilds an iframe's attributes (embeds.ts), so only its source matters here.
      const src = tag.attributes.find((a) => a.name === 'src')?.value ?? '';
      if (!hooks.embed(decodeEntities(src))) {
        hooks.warn(
          offset + tag.offset,
          `<iframe> of "${src}" is not from an embed domain of _site.yaml ("embeds") and was replaced by a link to it`,
        );
      }
      continue;
    }
    const element = droppedElement(tag.name);
    if (element) {
      hooks.warn(offset + tag.offset, element);
      continue;
    }
    for (const attribute of tag.attributes) {
      const dropped = droppedAttribute(tag.name, attribute.name);
      if (dropped) hooks.warn(offset + attribute.offset, dropped);
      const href = dropped ? undefined : rewrittenUrl(tag.name, attribute, offset, hooks);
      if (href !== undefined)
        edits.push({ start: attribute.valueStart, end: attribute.valueEnd, text: `"${escapeHtml(href)}"` });
    }
  }
  let text = html;
  for (const edit of edits.reverse()) text = text.slice(0, edit.start) + edit.text + text.slice(edit.end);
  const cleaned = text.replace(DROPPED_ELEMENTS, '');
  if (cleaned !== text) hooks.warn(offset, '<script> and <style> elements are not allowed in pages and were removed');
  return cleaned;
}

/** The new URL of a raw HTML attribute, or undefined to leave it as written. */
function rewrittenUrl(tag: string, attribute: RawAttribute, offset: number, hooks: RawHtmlHooks): string | undefined {
  const kind = RAW_URLS.get(`${tag} ${attribute.name}`);
  if (kind === undefined || attribute.value.trim() === '') return undefined;
  const written = decodeEntities(attribute.value);
  // An entity this check does not decode (`java&#x09;script:`) is left to the sanitizer, which does.
  if (/&#?[a-z0-9]+;/i.test(written)) return undefined;
  const href = hooks.url(kind, written, offset + attribute.valueStart);
  // Unresolved: an error was reported, or the URL is unsafe and the sanitizer removes it.
  return href === null || href === written ? undefined : href;
}
