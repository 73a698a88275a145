import net from 'node:net';

export interface RawAnswer {
  /** 0 when the server closed the connection without a status line. */
  status: number;
  headers: Record<string, string>;
  /** Everything after the header block, as latin1 so any byte survives for the leak checks. */
  body: string;
  /** The whole answer as it came off the wire. */
  raw: string;
}

/**
 * Sends bytes exactly as given over a fresh TCP connection and reads until the server closes it. `fetch` and
 * `http.request` normalise or refuse what these tests need on the wire (raw NUL bytes, spaces, unknown
 * methods, absolute-form targets, request lines with no path), so the attack goes through a plain socket.
 */
export function rawRequest(url: string, bytes: string | Buffer, timeoutMs = 10_000): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: hostname, port: Number(port) });
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete answer within ${timeoutMs} ms to ${JSON.stringify(String(bytes).slice(0, 80))}`));
    }, timeoutMs);
    socket.on('connect', () => socket.write(bytes));
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      // A kept-alive connection is not closed after the answer: stop reading once the answer is complete.
      const answer = parseAnswer(Buffer.concat(chunks).toString('latin1'));
      if (complete(answer)) socket.destroy();
    });
    // A reset after the answer was sent (the server closing a connection that still had unread bytes) is a
    // clean refusal, not an error: what counts is what arrived.
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') {
        clearTimeout(timer);
        reject(error);
      }
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(parseAnswer(Buffer.concat(chunks).toString('latin1')));
    });
  });
}

/** A request with `Connection: close`, so the server ends the connection once it has answered. */
export function rawGet(url: string, target: string, method = 'GET', extraHeaders = ''): Promise<RawAnswer> {
  const { host } = new URL(url);
  return rawRequest(url, `${method} ${target} HTTP/1.1\r\nHost: ${host}\r\n${extraHeaders}Connection: close\r\n\r\n`);
}

function complete(answer: RawAnswer): boolean {
  if (!answer.raw.includes('\r\n\r\n')) return false;
  const length = answer.headers['content-length'];
  if (length !== undefined) return Buffer.byteLength(answer.body, 'latin1') >= Number(length);
  if (answer.headers['transfer-encoding'] === 'chunked') return answer.body.endsWith('0\r\n\r\n');
  return answer.status === 204 || answer.status === 304;
}

function parseAnswer(raw: string): RawAnswer {
  const end = raw.indexOf('\r\n\r\n');
  const head = end >= 0 ? raw.slice(0, end) : raw;
  const [statusLine = '', ...lines] = head.split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status, headers, body: end >= 0 ? raw.slice(end + 4) : '', raw };
}
