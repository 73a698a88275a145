/**
 * The deployment pointer's request, handed from the boot script (src/client/app/start-app.ts), which makes
 * it as soon as the page has painted, to the app, which reads its answer once its modules have loaded. The
 * two are separate bundles, so the request waits on `window`.
 */
declare global {
  interface Window {
    docsPointerRequest?: Promise<Response>;
  }
}

export function handOverPointerRequest(request: Promise<Response>): void {
  window.docsPointerRequest = request;
}

/** The boot script's request, once (a response's body is read once); later the app asks anew. */
export function takePointerRequest(): Promise<Response> | undefined {
  const request = window.docsPointerRequest;
  window.docsPointerRequest = undefined;
  return request;
}
