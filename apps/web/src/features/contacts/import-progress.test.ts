import { describe, expect, it } from 'vitest';
import { hasSkippedRows, importPercent, importProgressText } from './import-progress';

describe('importPercent', () => {
  it('follows processed / rowCountGuess while running, capped at 99', () => {
    expect(importPercent({ status: 'running', processed: 25, rowCountGuess: 100 })).toBe(25);
    expect(importPercent({ status: 'running', processed: 130, rowCountGuess: 100 })).toBe(99);
  });

  it('is 0 before the start or without a guess, and 100 once completed', () => {
    expect(importPercent({ status: 'uploaded', processed: 0, rowCountGuess: 10 })).toBe(0);
    expect(importPercent({ status: 'running', processed: 5, rowCountGuess: 0 })).toBe(0);
    expect(importPercent({ status: 'completed', processed: 3, rowCountGuess: 10 })).toBe(100);
  });
});

describe('importProgressText', () => {
  it('describes each state', () => {
    const fmt = (n: number) => n.toLocaleString('en-US');
    expect(importProgressText({ status: 'running', processed: 1200, rowCountGuess: 5000 }, fmt)).toBe(
      'Importing… 1,200 of about 5,000 rows',
    );
    expect(importProgressText({ status: 'completed', processed: 1, rowCountGuess: 1 })).toBe(
      'Done: 1 row read',
    );
    expect(importProgressText({ status: 'failed', processed: 0, rowCountGuess: 1 })).toBe(
      'The import stopped',
    );
  });
});

describe('hasSkippedRows', () => {
  it('is true when any row was invalid or a duplicate', () => {
    expect(hasSkippedRows({ invalid: 0, duplicates: 0 })).toBe(false);
    expect(hasSkippedRows({ invalid: 1, duplicates: 0 })).toBe(true);
    expect(hasSkippedRows({ invalid: 0, duplicates: 2 })).toBe(true);
  });
});
