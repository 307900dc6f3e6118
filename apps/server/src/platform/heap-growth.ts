import v8 from 'node:v8';

/**
 * TIGHTER HEAP GROWTH WHILE A LARGE FILE IS READ.
 *
 * Reading a million-row file makes hundreds of megabytes of short-lived objects (rows, cells,
 * batches). V8 collects the old generation only when it has grown to several times what was live at
 * the last collection: with about 100 MB live, a 1M-recipient accept peaked at 535–570 MB of RSS,
 * almost all of it garbage (--trace-gc: 491 MB → 125 MB at a full collection). With the growth step
 * held at 25% while such work runs, the same accept peaked at 299 MB, for about 1.5 µs more CPU per
 * recipient, and it ran no slower, as PostgreSQL is the slower side (bench:campaign).
 *
 * Only while at least one such section runs: elsewhere V8's own growth step (chosen from the time
 * it spends collecting) keeps request handling cheap.
 */
const TIGHT_GROWTH_PERCENT = 25;

let sections = 0;

export async function withTightHeapGrowth<T>(run: () => Promise<T>): Promise<T> {
  if (sections++ === 0) v8.setFlagsFromString(`--heap-growing-percent=${TIGHT_GROWTH_PERCENT}`);
  try {
    return await run();
  } finally {
    // 0 is V8's default: a growth step derived from the collector's recent cost.
    if (--sections === 0) v8.setFlagsFromString('--heap-growing-percent=0');
  }
}
