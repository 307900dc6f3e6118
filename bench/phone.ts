/**
 * Phone validation micro-benchmark (issues #11 and #13, every path that reads a number):
 * contacts/contact-phone.ts normaliseContactPhone read by libphonenumber-js `max` itself
 * (shared/phone.ts parseE164: parse + isValid) against Wren's reader (shared/phone.ts toE164: the
 * same steps, each pattern compiled once), in this process.
 *
 *   npm run bench:phone -- [N]        (default 200,000 numbers per set)
 *
 * Prints µs per number for: the campaign bench's US numbers in E.164; a mix of 12 regions in
 * E.164; the same mix in national notation with spaces (read with each region as the default).
 * Checks both give the same answer for every number.
 */
import { getExampleNumber, type CountryCode } from 'libphonenumber-js/max';
import examples from 'libphonenumber-js/mobile/examples';
import { normaliseContactPhone } from '@wren/server/src/modules/contacts/contact-phone';
import { parseE164 } from '@wren/server/src/shared/phone';

const libphonenumber = (value: string, region: string) => normaliseContactPhone(value, region, parseE164);
const normalisePhone = (value: string, region: string) => normaliseContactPhone(value, region);

const N = Number(process.argv[2] ?? 200_000);
const AREA = [212, 646, 718, 917, 347, 415, 310, 312, 617, 202];
const us = (i: number) =>
  `+1${AREA[Math.floor(i / 10_000) % AREA.length]}${201 + Math.floor(i / 100_000)}${String(i % 10_000).padStart(4, '0')}`;
const REGIONS: CountryCode[] = ['GB', 'DE', 'FR', 'IN', 'BR', 'NG', 'AU', 'JP', 'ZA', 'RU', 'CA', 'KE'];

/** The region's example mobile with its last four digits varied. */
function regional(i: number): { e164: string; national: string; region: CountryCode } {
  const region = REGIONS[i % REGIONS.length]!;
  const example = getExampleNumber(region, examples)!;
  const nsn = example.nationalNumber as string;
  const varied = nsn.slice(0, -4) + String(Math.floor(i / REGIONS.length) % 10_000).padStart(4, '0');
  const national = example.format('NATIONAL').replace(/\d{1,4}$/, '');
  return {
    e164: `+${example.countryCallingCode as string}${varied}`,
    national: `${national}${varied.slice(-4)}`.replace(/(\d)(?=\d{4}$)/, '$1 '),
    region,
  };
}

function time(label: string, inputs: { value: string; region: string }[]) {
  const run = (f: (v: string, r: string) => string | null) => {
    let valid = 0;
    const t = performance.now();
    for (const { value, region } of inputs) if (f(value, region)) valid += 1;
    return { us: ((performance.now() - t) * 1000) / inputs.length, valid };
  };
  // Warm both, then measure each twice and keep the better.
  run(libphonenumber);
  run(normalisePhone);
  const old = [run(libphonenumber), run(libphonenumber)].sort((a, b) => a.us - b.us)[0]!;
  const now = [run(normalisePhone), run(normalisePhone)].sort((a, b) => a.us - b.us)[0]!;
  let differ = 0;
  for (const { value, region } of inputs) {
    if (libphonenumber(value, region) !== normalisePhone(value, region)) differ += 1;
  }
  console.log(
    `${label.padEnd(44)} libphonenumber ${old.us.toFixed(2).padStart(6)} µs   toE164 ${now.us.toFixed(2).padStart(6)} µs   ` +
      `${(old.us / now.us).toFixed(1)}×   valid ${now.valid.toLocaleString()}/${inputs.length.toLocaleString()}   differ ${differ}`,
  );
  if (differ) process.exitCode = 1;
}

console.log(`phone validation, ${N.toLocaleString()} numbers per set (µs per number, one core)`);
time(
  'US, E.164 (the campaign bench file)',
  Array.from({ length: N }, (_, i) => ({ value: us(i), region: 'US' })),
);
const mixed = Array.from({ length: N }, (_, i) => regional(i));
time(
  `${REGIONS.length} regions, E.164`,
  mixed.map((m) => ({ value: m.e164, region: 'US' })),
);
time(
  `${REGIONS.length} regions, national notation with spaces`,
  mixed.map((m) => ({ value: m.national, region: m.region })),
);
