import type { AssetKind, ImageDimensions } from './assets';
import { escapeHtml } from './escape';
import { imageBox, unsizedRemoteImage } from './image-box';
import { openingTags, type RawAttribute, type RawTag } from './html-tags';
import { droppedAttribute, droppedElement } from './sanitize';

/** What the raw HTML check needs from the analysis walk; offsets are the token's plus the offset in it. */
export interface RawHtmlHooks {
  warn(offset: number, message: string): void;
  /** True when an iframe with this `src` is kept (see embeds.ts); any other becomes a link to its URL. */
  embed(src: string): boolean;
  /** The URL to print for one written in an attribute, or null when it resolves nowhere (already reported). */
  url(kind: 'link' | AssetKind, written: string, offset: number): string | null;
  /** An `id` (or an `<a name>`) the reader gets: a link's #hash may lead to it, as to a heading. */
  anchor(id: string): void;
  /**
   * An `<img>` of a local file, by the URL `url` gave it: its width and height when the build could read
   * them, and whether it may be on the first screen (as a markdown image would be).
   */
  image(href: string): { dimensions?: ImageDimensions; eager: boolean };
}

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
 * markdown ones are, removes `<script>` and `<style>`, and hands on the ids the reader gets as anchors. It
 * reads the snippet with the sanitizer's own parser (html-tags.ts), so what it reports, rewrites and counts
 * as an anchor is what the sanitizer sees. Returns the HTML to render.
 */
export function checkRawHtml(html: string, offset: number, hooks: RawHtmlHooks): string {
  const edits: { start: number; end: number; text: string }[] = [];
  let removed = false;
  /** The image of the open `<picture>`'s first `<source srcset>`: what its `<img>` shows when it has no `src`. */
  let pictureImage: ReturnType<RawHtmlHooks['image']> | undefined;
  for (const tag of openingTags(html)) {
    if (tag.name === 'picture') pictureImage = undefined;
    if (tag.name === 'script' || tag.name === 'style') {
      // The parser reads everything up to the end tag as the element's text, and to the end without one.
      edits.push({ start: tag.offset, end: tag.end ?? html.length, text: '' });
      removed = true;
      continue;
    }
    if (tag.name === 'iframe') {
      // The sanitizer rebuilds an iframe's attributes (embeds.ts), so only its source matters here.
      const src = tag.attributes.find((a) => a.name === 'src');
      if (!hooks.embed(src?.value ?? '')) {
        hooks.warn(
          offset + tag.offset,
          `<iframe> of "${src?.written ?? ''}" is not from an embed domain of _site.yaml ("embeds") and was replaced by a link to it`,
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
      if (!dropped && attribute.name === 'srcset') {
        const quoted = /["']/.test(html[attribute.valueStart] ?? '');
        const srcset = rewrittenSrcset(attribute.value, offset + attribute.valueStart + (quoted ? 1 : 0), hooks);
        if (srcset)
          edits.push({ start: attribute.valueStart, end: attribute.valueEnd, text: `"${escapeHtml(srcset.text)}"` });
        if (srcset?.first !== undefined && tag.name === 'source') pictureImage ??= hooks.image(srcset.first);
      }
      const href = dropped ? undefined : rewrittenUrl(tag.name, attribute, offset, hooks);
      if (href !== undefined)
        edits.push({ start: attribute.valueStart, end: attribute.valueEnd, text: `"${escapeHtml(href)}"` });
      if (href !== undefined && tag.name === 'img' && attribute.name === 'src') {
        edits.push(...imageAttributes(tag, attribute.valueEnd, hooks.image(href)));
      }
      const named = attribute.name === 'id' || (tag.name === 'a' && attribute.name === 'name');
      if (!dropped && named && attribute.value !== '') hooks.anchor(attribute.value);
    }
    if (tag.name === 'img') {
      const side = (name: string) => tag.attributes.find((a) => a.name === name)?.value;
      const src = side('src');
      const unsized = src === undefined ? undefined : unsizedRemoteImage(src, side('width'), side('height'));
      if (unsized) hooks.warn(offset + tag.offset, unsized);
    }
    // An `<img>` without a `src` in a `<picture>` shows a source's image: it is sized by that image.
    if (tag.name === 'img' && pictureImage && !tag.attributes.some((a) => a.name === 'src')) {
      edits.push(...imageAttributes(tag, tag.offset + '<img'.length, pictureImage));
    }
  }
  // In the order written and apart: no tag stands inside a removed element.
  let text = html;
  for (const edit of edits.sort((a, b) => a.start - b.start).reverse())
    text = text.slice(0, edit.start) + edit.text + text.slice(edit.end);
  if (removed) hooks.warn(offset, '<script> and <style> elements are not allowed in pages and were removed');
  return text;
}

/**
 * What a local `<img>` gets, as a markdown image does: its size, so that the page keeps its place while
 * it loads (a writer's lone `width` or `height` gets the other side that keeps its proportions, image-box.ts),
 * `decoding="async"`, and `loading="lazy"` unless it may be on the first screen. The edits go after `src`.
 */
function imageAttributes(
  tag: RawTag,
  after: number,
  image: { dimensions?: ImageDimensions; eager: boolean },
): { start: number; end: number; text: string }[] {
  const attribute = (name: string) => tag.attributes.find((written) => written.name === name);
  const has = (name: string) => attribute(name) !== undefined;
  const [width, height] = [attribute('width'), attribute('height')];
  const box = imageBox(width?.value, height?.value, image.dimensions);
  const edits: { start: number; end: number; text: string }[] = [];
  let added = '';
  for (const [name, written] of [['width', width] as const, ['height', height] as const]) {
    if (!box) break;
    if (written) edits.push({ start: written.valueStart, end: written.valueEnd, text: `"${box[name]}"` });
    else added += ` ${name}="${box[name]}"`;
  }
  if (!has('decoding')) added += ' decoding="async"';
  if (!image.eager && !has('loading')) added += ' loading="lazy"';
  return added ? [...edits, { start: after, end: after, text: added }] : edits;
}

/**
 * A `srcset` (its value at `offset` of the page) with each candidate's URL rewritten as an image's (`url 2x, url 640w`), and the first
 * candidate's new URL; undefined when no URL changed. Candidates are split at a comma followed by space or
 * the end, as writers separate them; a URL holding ", " is read as two.
 */
function rewrittenSrcset(
  srcset: string,
  offset: number,
  hooks: RawHtmlHooks,
): { text: string; first?: string } | undefined {
  let changed = false;
  let first: string | undefined;
  const text = srcset.replace(/([^\s,][^\s]*?)(?=,?(?:\s|$))/g, (url: string, at: number) => {
    if (!/^[^,\s]/.test(url) || /^\d+(\.\d+)?[wx]$/.test(url)) return url;
    if ([...url].some((c) => c < ' ' || c === '\x7f')) return url;
    const href = hooks.url('image', url, offset + at);
    first ??= href ?? undefined;
    if (href === null || href === url) return url;
    changed = true;
    return href;
  });
  return changed ? { text, ...(first === undefined ? {} : { first }) } : undefined;
}

/** The new URL of a raw HTML attribute, or undefined to leave it as written. */
function rewrittenUrl(tag: string, attribute: RawAttribute, offset: number, hooks: RawHtmlHooks): string | undefined {
  const kind = RAW_URLS.get(`${tag} ${attribute.name}`);
  const url = attribute.value;
  if (kind === undefined || url.trim() === '') return undefined;
  // Browsers and the sanitizer read a URL without its tabs and newlines (`java&#x09;script:` is a javascript:
  // URL), which links.ts does not: such a URL is left to the sanitizer, which removes an unsafe one.
  if ([...url].some((c) => c < ' ' || c === '\x7f')) return undefined;
  const href = hooks.url(kind, url, offset + attribute.valueStart);
  // Unresolved: an error was reported, or the URL is unsafe and the sanitizer removes it.
  return href === null || href === url ? undefined : href;
}
