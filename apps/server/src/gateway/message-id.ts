/**
 * The one place where SMSC message ids are normalised (ARCHITECTURE.md §5).
 *
 * SMSCs write the same id differently in the submit_sm_resp and in the delivery receipt: upper vs
 * lower case hex, zero-padded decimal, or hex in one and decimal in the other. `smscIdKeys` returns
 * the lookup keys of an id; two ids that name the same message share at least one key.
 *
 * Keys, in order of preference:
 * 1. the canonical id: trimmed, lowercase, leading zeros stripped ("000123" → "123", "0A1F" → "a1f");
 * 2. when it is all hex digits, its value read as hex, in decimal ("a1f" → "2591");
 * 3. when it is all decimal digits, its value read as decimal, in lowercase hex ("123" → "7b").
 *
 * A string of decimal digits is also valid hex, so the cross-notation keys (2 and 3) can in rare cases
 * be shared by two different messages (hex "123" and decimal "291" both yield "291"). Store every key
 * of each accepted id, scope lookups by connection, and when one receipt matches several messages,
 * prefer the one whose first key equals the receipt's first key.
 */
export function smscIdKeys(id: string): string[] {
  const lower = id.trim().toLowerCase();
  if (lower === '') return [];
  const canonical = lower.replace(/^0+(?=.)/, '');
  const keys = [canonical];
  const add = (key: string): void => {
    if (!keys.includes(key)) keys.push(key);
  };
  if (/^[0-9a-f]+$/.test(canonical)) add(BigInt(`0x${canonical}`).toString(10));
  if (/^[0-9]+$/.test(canonical)) add(BigInt(canonical).toString(16));
  return keys;
}

/** True when two ids share a key (see smscIdKeys). */
export function sameSmscId(a: string, b: string): boolean {
  const keys = new Set(smscIdKeys(a));
  return smscIdKeys(b).some((k) => keys.has(k));
}
