/** A seeded PRNG (mulberry32): the same seed gives the same schedule and the same load choices. */
export type Rng = () => number;
export function seeded(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const FAULT_KINDS = [
  'kill-api',
  'kill-worker',
  'pg-restart',
  'pg-cut',
  'pg-stall',
  'smsc-disconnect',
  'smsc-slow',
  'receipts-duplicated',
  'receipts-reordered',
  'receipts-early',
  'receipts-lost',
  'wal-disk-full',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface PlannedFault {
  /** Seconds after the load starts. */
  at: number;
  kind: FaultKind;
  /** Which node or simulator (an index), and how long the fault lasts (seconds). */
  target: number;
  seconds: number;
}

/**
 * The run's faults: one every 6–12 s over `seconds` of load, each kind at least once when the run
 * is long enough (the kinds are dealt in a shuffled order, then again), the last one ending well
 * before the load stops.
 */
export function planFaults(
  rng: Rng,
  seconds: number,
  kinds: readonly FaultKind[] = FAULT_KINDS,
): PlannedFault[] {
  const faults: PlannedFault[] = [];
  let deck: FaultKind[] = [];
  for (let at = 4 + rng() * 4; at < seconds - 10; at += 6 + rng() * 6) {
    if (deck.length === 0) deck = [...kinds].sort(() => rng() - 0.5);
    const kind = deck.pop()!;
    faults.push({
      at: Math.round(at * 10) / 10,
      kind,
      target: Math.floor(rng() * 2),
      seconds: 1 + Math.round(rng() * 4),
    });
  }
  return faults;
}
