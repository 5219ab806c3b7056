/**
 * The in-flight rule (src/ledger/settle-rule.ts): a gateway's "not found" settles an entry as
 * not sent only once its run is gone and its deadline plus the grace period has passed. A fake
 * clock drives every case.
 */
import { describe, expect, it } from 'vitest';
import { deadlineOf, notFoundSettles, verdictWords, whenText, DEFAULT_SETTLE_AFTER_MS } from '../../src/ledger/settle-rule.js';

const T0 = Date.UTC(2026, 10, 25, 15, 0, 0);
const deadline = deadlineOf(T0, 30_000); // sent at T0 with a 30 s timeout

describe('not found settles an entry only after its deadline, once its owner is gone', () => {
  it('owner alive (running or stopped): never, whatever the clock says', () => {
    for (const now of [T0, deadline, deadline + DEFAULT_SETTLE_AFTER_MS, deadline + 86_400_000]) {
      expect(notFoundSettles({ deadlineMs: deadline, owner: 'alive' }, DEFAULT_SETTLE_AFTER_MS, now)).toEqual({
        settle: false,
        why: 'owner_alive',
        decidableAt: deadline + DEFAULT_SETTLE_AFTER_MS,
      });
    }
  });
  it('owner on another host (cannot be told): counts as alive', () => {
    expect(notFoundSettles({ deadlineMs: deadline, owner: 'unknown' }, 0, deadline + 1e9).settle).toBe(false);
  });
  it('owner gone: not before the deadline plus the grace period, from then on yes', () => {
    const grace = DEFAULT_SETTLE_AFTER_MS;
    expect(notFoundSettles({ deadlineMs: deadline, owner: 'gone' }, grace, T0 + 1)).toEqual({ settle: false, why: 'deadline', decidableAt: deadline + grace });
    expect(notFoundSettles({ deadlineMs: deadline, owner: 'gone' }, grace, deadline)).toEqual({ settle: false, why: 'deadline', decidableAt: deadline + grace });
    expect(notFoundSettles({ deadlineMs: deadline, owner: 'gone' }, grace, deadline + grace - 1).settle).toBe(false);
    expect(notFoundSettles({ deadlineMs: deadline, owner: 'gone' }, grace, deadline + grace)).toEqual({ settle: true });
  });
  it('the process itself: not while its request is open; once closed, by the clock like a gone owner', () => {
    expect(notFoundSettles({ deadlineMs: deadline, owner: 'self', selfOpen: true }, 0, deadline + 1e9).settle).toBe(false);
    expect(notFoundSettles({ deadlineMs: deadline, owner: 'self', selfOpen: false }, 0, deadline - 1)).toMatchObject({ settle: false, why: 'deadline' });
    expect(notFoundSettles({ deadlineMs: deadline, owner: 'self', selfOpen: false }, 0, deadline)).toEqual({ settle: true });
  });
  it('a negative grace is taken as none; a clock moved back keeps it unsettled', () => {
    expect(notFoundSettles({ deadlineMs: deadline, owner: 'gone' }, -5_000, deadline)).toEqual({ settle: true });
    expect(notFoundSettles({ deadlineMs: deadline, owner: 'gone' }, 0, T0 - 3_600_000).settle).toBe(false);
  });
  it('says why in words, with the time a lookup can decide', () => {
    const v = notFoundSettles({ deadlineMs: deadline, owner: 'gone' }, 120_000, T0);
    expect(v.settle).toBe(false);
    if (!v.settle)
      expect(verdictWords(v)).toBe(
        `it may still be in flight at the gateway until ${whenText(deadline + 120_000)} (its deadline plus settle-after); a lookup can decide after that`,
      );
    expect(whenText(deadline + 120_000, 'UTC')).toBe('2026-11-25T15:02:30+00:00');
    expect(whenText(deadline + 120_000, 'America/Sao_Paulo')).toBe('2026-11-25T12:02:30-03:00');
  });
});
