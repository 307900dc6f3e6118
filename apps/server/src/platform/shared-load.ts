/**
 * One load per key at a time, shared by every caller, and its result reused for a while that the
 * result itself decides (`holdMs`; 0 reuses it only while it is loading). For reads whose cost grows
 * with what they read, such as counting a campaign's messages: however many screens ask after a
 * push, the database counts a campaign once per hold. A failed load is not kept. At most `maxKeys`
 * results are kept; the oldest goes first.
 */
export function sharedLoad<V>(
  load: (key: string) => Promise<V>,
  holdMs: (value: V) => number,
  maxKeys = 1000,
): (key: string) => Promise<V> {
  const held = new Map<string, { value: Promise<V>; until: number }>();
  return (key) => {
    const hit = held.get(key);
    if (hit && hit.until >= Date.now()) return hit.value;
    const entry = { value: load(key), until: Number.POSITIVE_INFINITY };
    held.delete(key);
    held.set(key, entry);
    if (held.size > maxKeys) held.delete(held.keys().next().value as string);
    entry.value.then(
      (value) => {
        entry.until = Date.now() + holdMs(value);
        if (entry.until <= Date.now() && held.get(key) === entry) held.delete(key);
      },
      () => {
        if (held.get(key) === entry) held.delete(key);
      },
    );
    return entry.value;
  };
}
