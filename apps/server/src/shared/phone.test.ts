import { getCountries, getCountryCallingCode, getExampleNumber } from 'libphonenumber-js/max';
import examples from 'libphonenumber-js/mobile/examples';
import { describe, expect, it } from 'vitest';
import { normaliseContactPhone } from '../modules/contacts/contact-phone';
import { parseE164, readsItself, toE164 } from './phone';

/** A small seeded generator (mulberry32), so a failure names an input that reproduces. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const DEFAULTS = ['US', 'GB', 'DE', 'FR', 'IN', 'BR', 'NG', 'AU', 'JP', 'ZA', 'RU', 'IT', 'CA', 'MX', 'KE'];

/** Compares both paths on every (input, default country); returns the mismatches. */
function compare(inputs: Iterable<string>, countries: readonly string[]) {
  const wrong: { input: string; country: string; old: unknown; now: unknown }[] = [];
  let fast = 0;
  let valid = 0;
  let total = 0;
  for (const input of inputs) {
    for (const country of countries) {
      total += 1;
      if (readsItself(input, country)) fast += 1;
      const old = parseE164(input, country);
      const now = toE164(input, country);
      if (old) valid += 1;
      if (old !== now) wrong.push({ input, country, old, now });
      const oldContact = normaliseContactPhone(input, country, parseE164);
      const nowContact = normaliseContactPhone(input, country);
      if (oldContact !== nowContact)
        wrong.push({ input: `contact:${input}`, country, old: oldContact, now: nowContact });
    }
  }
  return { wrong, fast, valid, total };
}

describe('toE164 reads numbers exactly as libphonenumber-js max (parseE164)', () => {
  it('a hand-picked set: mobiles and landlines of many countries, notations, invalid and unallocated numbers', () => {
    const inputs = [
      // US / NANPA: landline, mobile, toll free, Canada, Jamaica, 555 fictional, unallocated area codes
      '+12125550123',
      '+1 212 555 0123',
      '+1 (212) 555-0123',
      '1-212-555-0123',
      '(212) 555-0123',
      '212.555.0123',
      '2125550123',
      '+16135550123',
      '+18765550123',
      '+18005550123',
      '+11235550123',
      '+12121234567',
      '+1212555012',
      '+121255501234',
      '0012125550123',
      '01112125550123',
      '12125550123',
      // UK: mobile, London, national prefix, 00, 44 without +, Isle of Man, too short/long, unallocated
      '+447700900123',
      '07700 900123',
      '07700900123',
      '+44 (0) 7700 900123',
      '00447700900123',
      '447700900123',
      '+442079460018',
      '020 7946 0018',
      '+447624123456',
      '+44770090012',
      '+4477009001234',
      '+445555555555',
      '+440000000000',
      '7700900123',
      // Germany, France, India, Brazil, Nigeria, Australia, Japan, South Africa, Russia, Italy, Kenya
      '+4915123456789',
      '0151 23456789',
      '+49 30 12345678',
      '030 12345678',
      '+4900000000',
      '+33612345678',
      '06 12 34 56 78',
      '+33 1 23 45 67 89',
      '0033612345678',
      '+3361234567',
      '+919876543210',
      '09876543210',
      '98765 43210',
      '+91 22 2345 6789',
      '+911234567890',
      '+5511987654321',
      '(11) 98765-4321',
      '+55 21 2345-6789',
      '011987654321',
      '+551198765432',
      '+2348031234567',
      '08031234567',
      '+234 1 234 5678',
      '+23480312345',
      '+61412345678',
      '0412 345 678',
      '+61 2 9876 5432',
      '+6141234567',
      '+819012345678',
      '090-1234-5678',
      '+81 3-1234-5678',
      '+8190123456789',
      '+27821234567',
      '082 123 4567',
      '+27 21 123 4567',
      '+2782123456',
      '+79161234567',
      '8 916 123-45-67',
      '89161234567',
      '+7 495 123-45-67',
      '+77011234567',
      '+393123456789',
      '312 345 6789',
      '+39 06 1234 5678',
      '+3906123',
      '+254712345678',
      '0712 345678',
      '+25471234567',
      // non-geographic, small countries, odd lengths
      '+80012345678',
      '+882123456789',
      '+3704567890',
      '+37060012345',
      '+4202',
      '+999123456',
      // not numbers, or not read by the fast path (falls back): letters, extensions, other scripts
      '',
      '+',
      '++12125550123',
      '1',
      '12',
      '1-2',
      '+12',
      '+123',
      'abc',
      '+1 212 555 0123 ext. 12',
      '212-555-0123 x45',
      'tel:+12125550123',
      '+1\u00a0212\u00a0555\u00a00123',
      '\uff0b\uff11\uff12\uff11\uff12\uff15\uff15\uff15\uff10\uff11\uff12\uff13',
      '+1/212/555/0123',
      '+1 212 555 0123;ext=4',
      '1212555012345678901',
      '0'.repeat(251),
      `+1${'2'.repeat(260)}`,
      "'+12125550123",
      '  +12125550123  ',
      '+(1) 212 555 0123',
      '(+44) 7700 900123',
      '44+7700900123',
      '..2125550123..',
      '(12)',
      '()',
      '---',
      '0044 (0)20 7946 0018',
    ];
    const { wrong, fast } = compare(inputs, DEFAULTS);
    expect(wrong).toEqual([]);
    expect(fast).toBeGreaterThan(inputs.length * DEFAULTS.length * 0.8);
  });

  it('every region: example mobiles in E.164, national, 00, without +, spaced, and mutated', () => {
    const rand = random(11);
    const inputs = new Set<string>();
    for (const country of getCountries()) {
      const example = getExampleNumber(country, examples);
      if (!example) continue;
      const nsn = example.nationalNumber as string;
      const cc = getCountryCallingCode(country);
      const mutate = (s: string) => {
        const i = Math.floor(rand() * s.length);
        return s.slice(0, i) + String(Math.floor(rand() * 10)) + s.slice(i + 1);
      };
      for (const n of [nsn, nsn.slice(0, -1), `${nsn}7`, mutate(nsn), mutate(nsn), mutate(mutate(nsn))]) {
        inputs.add(`+${cc}${n}`);
        inputs.add(`00${cc}${n}`);
        inputs.add(`${cc}${n}`);
        inputs.add(n);
        inputs.add(`0${n}`);
        inputs.add(`+${cc} ${n.slice(0, 3)} ${n.slice(3)}`);
        inputs.add(`(${n.slice(0, 3)}) ${n.slice(3, 6)}-${n.slice(6)}`);
      }
    }
    // Each input read with its own region's default and a few others.
    const { wrong, fast, valid, total } = compare(inputs, ['US', 'GB', 'DE', 'IN', 'BR', 'FR', 'RU']);
    expect(wrong).toEqual([]);
    expect(fast).toBe(total);
    expect(valid).toBeGreaterThan(total / 20);
    // Each region's numbers in national notation, read with that region as the default.
    const own = { wrong: [] as unknown[], valid: 0, total: 0 };
    for (const country of getCountries()) {
      const e = getExampleNumber(country, examples);
      if (!e) continue;
      const n = e.nationalNumber as string;
      const r = compare([n, `0${n}`, `${n.slice(0, -1)}`, `0${n.slice(0, 4)} ${n.slice(4)}`], [country]);
      own.wrong.push(...r.wrong);
      own.valid += r.valid;
      own.total += r.total;
    }
    expect(own.valid).toBeGreaterThan(own.total / 4);
    expect(own.wrong).toEqual([]);
  });

  it('random digit strings of every length, with and without +, under many default regions', () => {
    const rand = random(7);
    const inputs: string[] = [];
    for (let i = 0; i < 4000; i++) {
      const length = 1 + Math.floor(rand() * 17);
      let digits = '';
      for (let d = 0; d < length; d++) digits += String(Math.floor(rand() * 10));
      inputs.push(rand() < 0.5 ? `+${digits}` : digits);
    }
    const { wrong, fast, total } = compare(inputs, DEFAULTS);
    expect(wrong).toEqual([]);
    expect(fast).toBe(total);
  });
});
