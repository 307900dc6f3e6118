import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../test/harness';
import { openPostgres } from './db';
import { parseTimestamptz, parseTimestamptzReference } from './pg-timestamp';

/** The same answer: the same instant, or both the same non-date (infinity, null, invalid). */
function same(text: string) {
  const a = parseTimestamptz(text);
  const b = parseTimestamptzReference(text);
  const v = (x: Date | number | null) => (x instanceof Date ? `date ${x.getTime()}` : String(x));
  return { text, ours: v(a), reference: v(b) };
}

/** A seeded generator, so a failure names an input that can be run again. */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return s / 2 ** 32;
  };
}

const pad = (n: number, w: number) => String(n).padStart(w, '0');

describe('reading timestamptz text', () => {
  it('reads what pg reads, for every fraction length, offset shape and year', () => {
    const rnd = random(20261125);
    const offsets = [
      '+00',
      '-05',
      '+13',
      '-12',
      '+05:30',
      '+05:45',
      '-03:30',
      '-09:30',
      '+12:45',
      '+00:53:28',
      '-00:25:21',
      '+01:39:49',
    ];
    const mismatches: ReturnType<typeof same>[] = [];
    for (let i = 0; i < 20_000; i++) {
      const year =
        [100, 999, 1000, 1582, 1899, 1900, 1969, 1970, 2000, 2026, 2038, 9999][i % 12]! +
        (i % 5 === 0 ? 0 : Math.floor(rnd() * 3));
      const y = Math.min(9999, year);
      const month = 1 + Math.floor(rnd() * 12);
      const day = 1 + Math.floor(rnd() * 31); // 31 February too: both roll it over the same way
      const hour = Math.floor(rnd() * 24);
      const minute = Math.floor(rnd() * 60);
      const second = Math.floor(rnd() * 60);
      const digits = i % 7; // 0 (none) to 6, as PostgreSQL writes microseconds without trailing zeros
      const fraction = digits ? '.' + pad(Math.floor(rnd() * 10 ** digits), digits) : '';
      const text = `${pad(y, 4)}-${pad(month, 2)}-${pad(day, 2)} ${pad(hour, 2)}:${pad(minute, 2)}:${pad(second, 2)}${fraction}${offsets[i % offsets.length]}`;
      const r = same(text);
      if (r.ours !== r.reference) mismatches.push(r);
    }
    expect(mismatches.slice(0, 5)).toEqual([]);
  });

  it('leaves every other shape to pg: infinity, BC, short and long years, other styles, garbage', () => {
    const texts = [
      'infinity',
      '-infinity',
      '0044-03-15 12:00:00+00 BC',
      '2026-11-25 12:00:00+00 BC',
      '0099-12-31 23:59:59+00',
      '0001-01-01 00:00:00+00',
      '12026-11-25 12:00:00+00',
      '2026-11-25 12:00:00.1234567+00',
      '2026-11-25 12:00:00.+00',
      '2026-11-25 12:00:00',
      '2026-11-25T12:00:00Z',
      '2026-11-25 12:00:00Z',
      'Wed Nov 25 12:00:00 2026 UTC',
      '25/11/2026 12:00:00 UTC',
      '2026-1x-25 12:00:00+00',
      '2026-11-25 12:00:00+0a',
      '2026-11-25 12:00:00+05:3',
      '2026-11-25 12:00:00+00 extra',
      '2026-11-25',
      '',
    ];
    for (const text of texts) {
      const r = same(text);
      expect(r.ours, text).toBe(r.reference);
    }
  });
});

describe('timestamptz through the server’s pool', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('reads the instants PostgreSQL writes in any session time zone, to the millisecond', async () => {
    const database = await openPostgres(server.databaseUrl, 1);
    try {
      // Zones with half- and quarter-hour offsets, offsets in seconds (local mean time before
      // 1900), daylight saving, and dates from 1850 to 2300 with microseconds.
      for (const zone of [
        'UTC',
        'Asia/Kathmandu',
        'America/St_Johns',
        'Europe/Amsterdam',
        'Pacific/Chatham',
        'America/Los_Angeles',
      ]) {
        await sql`SELECT set_config('TimeZone', ${zone}, false)`.execute(database.db);
        const { rows } = await sql<{ at: Date; ms: string; text: string }>`
          SELECT t AS at, floor(extract(epoch FROM t) * 1000)::bigint::text AS ms, t::text AS text
            FROM generate_series(timestamptz '1850-01-01 00:00:00.123456+00', timestamptz '2300-01-01', interval '1234567.891011 seconds') AS t`.execute(
          database.db,
        );
        expect(rows.length).toBeGreaterThan(11_000);
        const wrong = rows.filter((r) => !(r.at instanceof Date) || String(r.at.getTime()) !== r.ms);
        expect(wrong.slice(0, 3), zone).toEqual([]);
        // The texts were in the zone's own offsets (not all +00), so those shapes were read.
        if (zone !== 'UTC') expect(rows.some((r) => !r.text.endsWith('+00'))).toBe(true);
      }
    } finally {
      await database.close();
    }
  });
});
