import { describe, expect, it } from 'vitest';
import { timeZoneOptions } from './timezone-select';

describe('timeZoneOptions', () => {
  it('lists the browser’s IANA zones, sorted, with UTC', () => {
    const zones = timeZoneOptions(null);
    expect(zones).toEqual([...zones].sort());
    expect(zones).toEqual(expect.arrayContaining(['UTC', 'America/New_York', 'Europe/Berlin']));
    expect(new Set(zones).size).toBe(zones.length);
  });

  it('keeps a current value the browser does not list', () => {
    expect(timeZoneOptions('Mars/Olympus_Mons')).toContain('Mars/Olympus_Mons');
    expect(timeZoneOptions(null)).not.toContain('Mars/Olympus_Mons');
  });
});
