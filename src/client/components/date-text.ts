const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/**
 * A date as "January 2, 2026", in UTC, so the prerendered HTML and the hydrated page print the same text
 * wherever the reader is. Written out rather than with `Intl.DateTimeFormat`: a page's first formatter
 * loads the browser's locale data, tens of milliseconds on the main thread in the middle of the app's start,
 * for one fixed English format.
 */
export function longUtcDate(iso: string): string {
  const date = new Date(iso);
  return `${MONTHS[date.getUTCMonth()]} ${date.getUTCDate()}, ${date.getUTCFullYear()}`;
}
