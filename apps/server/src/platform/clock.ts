/**
 * The application's idea of "now", for rules decided in TypeScript: access-token issue and expiry,
 * refresh-token expiry and its reuse grace window, login locks, password-reset expiry and the short
 * caches built on them. SQL that says `now()` keeps using the database's clock.
 *
 * Production uses {@link systemClock}; tests pass a {@link TestClock} and advance it instead of
 * waiting for wall time to pass.
 */
export interface Clock {
  now(): Date;
}

/** The clock of the machine. */
export const systemClock: Clock = { now: () => new Date() };

/** Milliseconds since the epoch on a clock (the `Date.now()` of that clock). */
export const nowMs = (clock: Clock): number => clock.now().getTime();

/** A clock that stands still until a test moves it. */
export interface TestClock extends Clock {
  /** Moves the clock forward by `ms` (a negative value moves it back). */
  advance(ms: number): void;
  /** Sets the clock to `at`. */
  set(at: Date | number): void;
}

/** A test clock standing at `start` (default: the wall time when it was made). */
export function createTestClock(start: Date | number = Date.now()): TestClock {
  let at = typeof start === 'number' ? start : start.getTime();
  return {
    now: () => new Date(at),
    advance: (ms) => {
      at += ms;
    },
    set: (to) => {
      at = typeof to === 'number' ? to : to.getTime();
    },
  };
}
