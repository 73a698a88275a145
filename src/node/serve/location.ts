/** Percent-encodes what a header cannot carry as it is: controls, spaces and anything outside ASCII. */
const ASCII_VISIBLE = /[^\x21-\x7e]/gu;

/**
 * The `Location` header for a redirect to `pathname` (decoded, as the server matched it), keeping the
 * request's raw query string and a redirect target's `#section`. A path may hold any character a file name
 * can; sent as it is, a non-ASCII or control character makes Node refuse the header (an exception in the
 * middle of answering), and `?` or `#` would end the path early. The query string comes off the request
 * line, one character per byte, so each of its characters outside ASCII is one byte to encode.
 */
export function locationHeader(pathname: string, search = '', hash?: string): string {
  const path = encodeURI(pathname).replace(/[?#]/g, (c) => encodeURIComponent(c));
  const query = search.replace(ASCII_VISIBLE, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
  const section = hash === undefined ? '' : `#${hash.replace(ASCII_VISIBLE, (c) => encodeURIComponent(c))}`;
  return path + query + section;
}
