/**
 * The window event by which the dev client (live.ts) tells the app that a rebuild wrote new content. Its
 * own module: the dev client is a separate script, which must not take the app's code in with it.
 */
export const DEV_CONTENT_EVENT = 'docs:dev-content';
