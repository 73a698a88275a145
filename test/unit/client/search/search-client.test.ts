import { describe, expect, it } from 'vitest';
import { AnswerOrder } from '../../../../src/client/search/search-client';

describe('the answers the search dialog draws', () => {
  it("draws a query's answer that the worker had ready while the reader typed on, until the newest arrives", () => {
    const answers = new AnswerOrder();
    answers.ask(1); // "pl"
    answers.ask(2); // "plu", typed while the worker ranked "pl"
    expect(answers.take(1)).toBe(true);
    expect(answers.take(2)).toBe(true);
  });

  it('never takes the list back to an older query once a newer answer is drawn', () => {
    const answers = new AnswerOrder();
    answers.ask(1);
    answers.ask(2);
    answers.ask(3);
    expect(answers.take(2)).toBe(true);
    expect(answers.take(1)).toBe(false);
    // The top of the newest list, then the whole of it.
    expect(answers.take(3)).toBe(true);
    expect(answers.take(3)).toBe(true);
    expect(answers.take(2)).toBe(false);
  });

  it('draws no answer to a query it did not ask', () => {
    const answers = new AnswerOrder();
    answers.ask(1);
    expect(answers.take(4)).toBe(false);
    expect(answers.take(1)).toBe(true);
  });
});
