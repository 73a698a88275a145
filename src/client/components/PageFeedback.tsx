import { useEffect, useId, useState, useSyncExternalStore } from 'react';
import { useTrack } from '../app/analytics';
import {
  giveFeedback,
  newFeedbackId,
  onAnswersChanged,
  retryUnsent,
  storedAnswer,
  type FeedbackAnswer,
} from '../app/feedback';

type Step =
  | { kind: 'ask' }
  | { kind: 'comment'; id: string; answer: FeedbackAnswer; failed: boolean }
  | { kind: 'done'; failed: boolean };

/**
 * "Was this page helpful?" under a page, when the site names a feedback endpoint. The prerendered page
 * shows the question (the server's snapshot); once hydrated, a page this browser already answered says
 * so instead. One instance per page (PageView keys it by route).
 */
export function PageFeedback({
  route,
  endpoint,
  deployment,
  analyticsId,
}: {
  route: string;
  endpoint: string;
  deployment: string;
  analyticsId: string | undefined;
}) {
  const [step, setStep] = useState<Step>({ kind: 'ask' });
  const [comment, setComment] = useState('');
  const commentId = useId();
  const track = useTrack(analyticsId);
  const answered = useSyncExternalStore(
    onAnswersChanged,
    () => storedAnswer(route) !== undefined,
    () => false,
  );

  // Each page view sends again what an endpoint did not take before.
  useEffect(() => {
    void retryUnsent(endpoint);
  }, [route, endpoint]);

  const answer = async (value: FeedbackAnswer) => {
    const id = newFeedbackId();
    setStep({ kind: 'comment', id, answer: value, failed: false });
    track('page_feedback', { page_path: route, answer: value });
    const ok = await giveFeedback(endpoint, { id, route, answer: value, deployment });
    if (!ok) setStep((now) => (now.kind === 'comment' && now.id === id ? { ...now, failed: true } : now));
  };

  const sendComment = async (id: string, value: FeedbackAnswer) => {
    const text = comment.trim();
    if (!text) return setStep({ kind: 'done', failed: false });
    const ok = await giveFeedback(endpoint, { id, route, answer: value, comment: text, deployment });
    setStep({ kind: 'done', failed: !ok });
  };

  const failure = (
    <p className="feedback-failed" role="alert">
      Your answer could not be sent. It is kept in this browser and sent on your next page view.
    </p>
  );
  const shown: Step = step.kind === 'ask' && answered ? { kind: 'done', failed: false } : step;

  return (
    <section className="feedback" aria-label="Page feedback">
      {shown.kind === 'ask' && (
        <div className="feedback-ask">
          <p className="feedback-question">Was this page helpful?</p>
          <button type="button" onClick={() => void answer('yes')}>
            Yes
          </button>
          <button type="button" onClick={() => void answer('no')}>
            No
          </button>
        </div>
      )}
      {shown.kind === 'comment' && (
        <form
          className="feedback-comment"
          onSubmit={(event) => {
            event.preventDefault();
            void sendComment(shown.id, shown.answer);
          }}
        >
          <label htmlFor={commentId}>Thank you. Anything we should add or fix? (optional)</label>
          <textarea id={commentId} value={comment} maxLength={2000} onChange={(e) => setComment(e.target.value)} />
          <button type="submit">Send</button>
          {shown.failed && failure}
        </form>
      )}
      {shown.kind === 'done' && (
        <div role="status">
          <p className="feedback-question">Thank you for your feedback.</p>
          {shown.failed && failure}
        </div>
      )}
    </section>
  );
}
