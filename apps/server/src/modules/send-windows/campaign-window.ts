import type { SendWindow, SendWindowsSummary } from '@wren/contracts';
import type { Db } from '../../platform/db';
import { zoneOfNumber } from './phone-zone';
import { accountWindow } from './send-window-settings';
import { localLabel, nextOpen } from './window-time';

/**
 * A campaign's window: its own (`requested` a window), none (`null`), or the account's default
 * (`undefined`); with where it came from. Null when the campaign has none.
 */
export async function resolveWindow(
  db: Db,
  accountId: string,
  requested: SendWindow | null | undefined,
): Promise<{ window: SendWindow; source: 'campaign' | 'account' } | null> {
  if (requested === null) return null;
  if (requested) return { window: requested, source: 'campaign' };
  const def = await accountWindow(db, accountId);
  return def ? { window: def, source: 'account' } : null;
}

/**
 * Counts recipients per time zone as a scan hands them over, then says when the window opens for
 * each zone (from `start`: the schedule, or now) — the estimate's plan. Zones are cached per
 * number's zone, so a scan of a million numbers makes a handful of window computations.
 */
export function windowPlanner(
  w: { window: SendWindow; source: 'campaign' | 'account' },
  fallbackZone: string,
) {
  const counts = new Map<string, { recipients: number; fallback: boolean }>();
  return {
    add(phone: number | string) {
      const own = zoneOfNumber(String(phone));
      const key = own ?? `\u0000${fallbackZone}`;
      const c = counts.get(key);
      if (c) c.recipients += 1;
      else counts.set(key, { recipients: 1, fallback: own === null });
    },
    summary(start: Date): SendWindowsSummary {
      const zones = [...counts.entries()].map(([key, c]) => {
        const timeZone = c.fallback ? fallbackZone : key;
        const opens = nextOpen(w.window, timeZone, start);
        return {
          timeZone,
          recipients: c.recipients,
          fallback: c.fallback,
          opensAt: opens.toISOString(),
          opensAtLocal: localLabel(opens, timeZone),
          openNow: opens.getTime() === start.getTime(),
        };
      });
      zones.sort((a, b) => a.opensAt.localeCompare(b.opensAt) || b.recipients - a.recipients);
      const last = zones.length ? zones[zones.length - 1].opensAt : null;
      return { window: w.window, source: w.source, fallbackZone, zones, lastSendAt: last };
    },
  };
}

/**
 * When each number's window opens from `from` (null: open then), the number's zone or
 * `fallbackZone`; computed once per zone.
 */
export function opensFor(window: SendWindow, fallbackZone: string, from: Date) {
  const byZone = new Map<string, Date>();
  return (e164: string): Date | null => {
    const zone = zoneOfNumber(e164) ?? fallbackZone;
    let t = byZone.get(zone);
    if (!t) {
      t = nextOpen(window, zone, from);
      byZone.set(zone, t);
    }
    return t.getTime() > from.getTime() ? t : null;
  };
}
