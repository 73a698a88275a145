import type http from 'node:http';

/** Where the server reports a request that failed inside it. */
export type FailureLog = (message: string) => void;

const toStandardError: FailureLog = (message) => console.error(message);

/** Headers that describe a body or a redirect, wrong on the plain 500 that replaces them. */
const BODY_HEADERS = ['Content-Length', 'Content-Range', 'Content-Encoding', 'ETag', 'Last-Modified', 'Location'];

/**
 * Answers a request that failed inside the server, whatever the cause (a bug, a file gone mid-read): 500
 * while nothing was sent, otherwise the connection is cut so that the client sees a broken answer rather
 * than a complete-looking truncated one. Either way it is logged, and the server goes on with the next
 * request: one request never stops the server. The 500 is visible, so a test that expects no 5xx still
 * catches the bug behind it.
 */
export function answerFailure(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  error: unknown,
  log: FailureLog = toStandardError,
): void {
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
  const cause = error instanceof Error && error.cause instanceof Error ? `\ncaused by ${error.cause.message}` : '';
  log(`serve: ${req.method ?? '?'} ${JSON.stringify(req.url ?? '')} failed: ${detail}${cause}`);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  try {
    for (const name of BODY_HEADERS) res.removeHeader(name);
    res.statusCode = 500;
    res.setHeader('Content-Type', 'text/plain; charset=utf-8');
    res.setHeader('Cache-Control', 'no-store');
    res.end('Internal server error');
  } catch {
    res.destroy();
  }
}

/** The request listener `handler`, with every exception it throws answered by `answerFailure`. */
export function answerFailures(
  handler: (req: http.IncomingMessage, res: http.ServerResponse) => void,
  log?: FailureLog,
): http.RequestListener {
  return (req, res) => {
    try {
      handler(req, res);
    } catch (error) {
      answerFailure(req, res, error, log);
    }
  };
}
