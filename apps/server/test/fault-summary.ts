import { afterAll } from 'vitest';

/**
 * A family of fault cases (issue #14): counts the cases tried and failed, and prints one summary
 * line when the file's tests are done, e.g. `[faults] receipts: cases tried 5, failures 0`.
 */
export function faultFamily(name: string) {
  const tally = { tried: 0, failed: 0 };
  afterAll(() => {
    console.log(`[faults] ${name}: cases tried ${tally.tried}, failures ${tally.failed}`);
  });
  return {
    /** Runs one case; a throw counts as a failure (and still fails the test). */
    async run<T>(fn: () => Promise<T>): Promise<T> {
      tally.tried += 1;
      try {
        return await fn();
      } catch (err) {
        tally.failed += 1;
        throw err;
      }
    },
  };
}
