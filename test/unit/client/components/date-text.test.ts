import { describe, expect, it } from 'vitest';
import { longUtcDate } from '../../../../src/client/components/date-text';

describe('longUtcDate', () => {
  it('prints the day in UTC, whatever the time of day', () => {
    expect(longUtcDate('2026-01-02T00:00:00Z')).toBe('January 2, 2026');
    expect(longUtcDate('2026-01-02T23:59:59Z')).toBe('January 2, 2026');
    expect(longUtcDate('2026-01-02T23:30:00-05:00')).toBe('January 3, 2026');
  });

  it('prints every day of a leap year and of the years around it as the English long date does', () => {
    const english = new Intl.DateTimeFormat('en-US', {
      year: 'numeric',
      month: 'long',
      day: 'numeric',
      timeZone: 'UTC',
    });
    const day = 24 * 60 * 60 * 1000;
    for (let t = Date.UTC(2023, 0, 1); t < Date.UTC(2026, 0, 1); t += day) {
      const iso = new Date(t + 13 * 60 * 60 * 1000).toISOString();
      expect(longUtcDate(iso), iso).toBe(english.format(new Date(iso)));
    }
  });
});
