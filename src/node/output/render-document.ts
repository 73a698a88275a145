import { randomUUID } from 'node:crypto';
import type { HeadData } from '../../shared/head';
import type { SiteData } from '../../shared/site-data';
import { heldText, type StoredText } from '../analyze/text-store';
import { renderDocument, type DocumentAssets, type DocumentSettings } from './document';

/**
 * Renders one route's app HTML with the prerender bundle (the same components the browser hydrates), from
 * the same site data files the browser reads and the page's fragment.
 */
export type RenderRoute = (data: SiteData, route: string, html: string | undefined) => Promise<string>;

/** What a document holds besides the app's HTML (document.ts). */
export interface DocumentShell {
  head: HeadData;
  assets: DocumentAssets;
  settings: DocumentSettings;
}

/**
 * A route's whole document, in parts written one after the other: the text before its page's fragment,
 * the fragment as the build keeps it (`PageRecord.html`), the text after it; one part for a route without
 * a page.
 */
export type DocumentParts = readonly StoredText[];

/**
 * Renders a route's whole document: its app HTML (`RenderRoute`, from the site data) in its shell, around
 * the page's fragment. The renderer never reads the fragment, the largest part of most documents: it is
 * written from where the build keeps it, and no prerender thread is sent it or encodes it again.
 */
export type RenderDocument = (
  route: string,
  html: StoredText | undefined,
  shell: DocumentShell,
) => Promise<DocumentParts>;

/**
 * Renders a route's document with a place held for its page's fragment (`withPage`): the UTF-8 bytes
 * before and after that place (views of one buffer), or of the whole document for a route without a page.
 * The place is a comment no text of the site can hold, and the app puts the fragment's HTML in as it is.
 * It is found in the bytes: the rendered text is made of many pieces, which encoding it joins anyway.
 */
export function framingHere(
  renderRoute: RenderRoute,
  data: SiteData,
): (route: string, withPage: boolean, shell: DocumentShell) => Promise<Uint8Array<ArrayBuffer>[]> {
  const place = `<!--${randomUUID()}-->`;
  const placeBytes = Buffer.from(place);
  const encoder = new TextEncoder();
  return async (route, withPage, { head, assets, settings }) => {
    const app = await renderRoute(data, route, withPage ? place : undefined);
    // A buffer of its own, which a prerender thread hands over with its answer: a Buffer made from a
    // string may be a slice of Node's shared pool, which must not be handed to another thread.
    const encoded = encoder.encode(renderDocument(head, app, assets, settings));
    const bytes = Buffer.from(encoded.buffer, encoded.byteOffset, encoded.byteLength);
    if (!withPage) return [bytes];
    const at = bytes.indexOf(placeBytes);
    if (at < 0) throw new Error(`prerendering ${route}: the document has no place for the page's text`);
    return [bytes.subarray(0, at), bytes.subarray(at + placeBytes.length)];
  };
}

/** A document's parts: its frame (`framingHere`) with the page's fragment between its two parts. */
export function aroundFragment(frame: readonly Uint8Array[], html: StoredText | undefined): DocumentParts {
  const [before = new Uint8Array(), after] = frame;
  return html && after !== undefined ? [heldText(before), html, heldText(after)] : [heldText(before)];
}

/** A `RenderDocument` on this thread, with the renderer and the site data. */
export function renderingHere(renderRoute: RenderRoute, data: SiteData): RenderDocument {
  const frame = framingHere(renderRoute, data);
  return async (route, html, shell) => aroundFragment(await frame(route, html !== undefined, shell), html);
}

/**
 * What renders a site's documents once the build knows how many it must render (the others are kept as
 * the previous build left them): other threads for many, this thread for a few.
 */
export interface DocumentRenderer {
  /** Gets ready to render `documents` documents; resolves to how many to have sent at once. */
  ready(documents: number): Promise<number>;
  readonly render: RenderDocument;
}
