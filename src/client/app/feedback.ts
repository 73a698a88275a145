/**
 * Page feedback ("Was this page helpful?"): each answer is remembered per page in this browser and sent
 * as JSON to the endpoint of `_site.yaml`. An answer the endpoint did not take stays marked unsent and is
 * sent again on a later page view; nothing about it ever becomes an error page.
 */

export type FeedbackAnswer = 'yes' | 'no';

export interface FeedbackMessage {
  /** One answer and the comment sent after it share an id, so the writers can join them. */
  id: string;
  route: string;
  answer: FeedbackAnswer;
  comment?: string;
  /** The deployment the reader read (the manifest's hash). */
  deployment: string;
}

interface StoredAnswer {
  message: FeedbackMessage;
  sent: boolean;
}

const STORAGE_KEY = 'docs-feedback';

function readAll(): Record<string, StoredAnswer> {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '{}');
    return stored && typeof stored === 'object' ? (stored as Record<string, StoredAnswer>) : {};
  } catch {
    return {};
  }
}

function writeAll(all: Record<string, StoredAnswer>): void {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(all));
  } catch {
    // Storage refused (private mode): the answer is sent, and asked again on the next visit.
  }
}

/** The answer this browser gave for the page, if any. */
export function storedAnswer(route: string): StoredAnswer | undefined {
  return readAll()[route];
}

const ANSWERED_EVENT = 'docs:feedback-answered';

/** Calls back when an answer is stored, in this tab or another: for `useSyncExternalStore`. */
export function onAnswersChanged(callback: () => void): () => void {
  window.addEventListener(ANSWERED_EVENT, callback);
  window.addEventListener('storage', callback);
  return () => {
    window.removeEventListener(ANSWERED_EVENT, callback);
    window.removeEventListener('storage', callback);
  };
}

/** A new answer (or its comment): remembered first, then sent. Resolves whether the endpoint took it. */
export async function giveFeedback(endpoint: string, message: FeedbackMessage): Promise<boolean> {
  const all = readAll();
  all[message.route] = { message, sent: false };
  writeAll(all);
  window.dispatchEvent(new Event(ANSWERED_EVENT));
  return deliver(endpoint, message);
}

/** Sends again every answer an endpoint did not take before; called once per page view. */
export async function retryUnsent(endpoint: string): Promise<void> {
  const unsent = Object.values(readAll()).filter((stored) => !stored.sent);
  await Promise.all(unsent.map((stored) => deliver(endpoint, stored.message)));
}

async function post(endpoint: string, message: FeedbackMessage): Promise<boolean> {
  try {
    // keepalive: an answer given just before the reader leaves still goes out.
    const response = await fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(message),
      keepalive: true,
    });
    return response.ok;
  } catch {
    return false;
  }
}

async function deliver(endpoint: string, message: FeedbackMessage): Promise<boolean> {
  const ok = await post(endpoint, message);
  if (ok) {
    const all = readAll();
    const stored = all[message.route];
    // Only if it is still this answer: a newer one is sent on its own.
    if (stored?.message.id === message.id && stored.message.comment === message.comment) {
      all[message.route] = { message, sent: true };
      writeAll(all);
    }
  }
  return ok;
}

export function newFeedbackId(): string {
  return crypto.randomUUID();
}
