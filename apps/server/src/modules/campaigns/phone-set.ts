/**
 * The set of E.164 numbers (as numbers: 15 digits at most, exact in a double) a campaign scan has
 * seen, for de-duplication. An open-addressing table in one Float64Array: 8–16 bytes a number and
 * no object per entry, where a Set<number> of 1,000,000 numbers that are not small integers holds a
 * heap number and a table entry for each (about 40 MB) and gives the garbage collector a million
 * objects to trace.
 */
export class PhoneSet {
  private table = new Float64Array(1 << 12);
  private mask = (1 << 12) - 1;
  size = 0;

  private slot(phone: number): number {
    const lo = phone % 4294967296;
    const hi = (phone - lo) / 4294967296;
    let h = Math.imul(lo ^ Math.imul(hi | 0, 0x9e3779b1), 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
    return h & this.mask;
  }

  /** Adds `phone` (a positive integer); false when it was already there. */
  add(phone: number): boolean {
    if (!(phone > 0) || !Number.isSafeInteger(phone)) throw new RangeError(`not a phone number: ${phone}`);
    let i = this.slot(phone);
    for (;;) {
      const v = this.table[i];
      if (v === 0) break;
      if (v === phone) return false;
      i = (i + 1) & this.mask;
    }
    this.table[i] = phone;
    this.size += 1;
    if (this.size * 2 > this.table.length) this.grow();
    return true;
  }

  has(phone: number): boolean {
    let i = this.slot(phone);
    for (;;) {
      const v = this.table[i];
      if (v === 0) return false;
      if (v === phone) return true;
      i = (i + 1) & this.mask;
    }
  }

  private grow() {
    const old = this.table;
    this.table = new Float64Array(old.length * 2);
    this.mask = this.table.length - 1;
    for (const v of old) {
      if (v === 0) continue;
      let i = this.slot(v);
      while (this.table[i] !== 0) i = (i + 1) & this.mask;
      this.table[i] = v;
    }
  }
}
