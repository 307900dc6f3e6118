import type { Db } from '../../platform/db';
import type { Logger } from '../../platform/logger';
import * as repo from './api-keys.repository';

/** Each key's answered requests, errors and last use, counted in memory and flushed to the usage tables. */
export function createKeyUsage(deps: { db: Db; logger: Logger; now: () => number }) {
  const { db, now } = deps;
  // Usage counters, flushed every FLUSH_MS (and on close).
  let usage = new Map<string, repo.UsageDelta>();
  let errors = new Map<string, { keyId: string; day: string; code: string; requests: number }>();
  let touched = new Map<string, { keyId: string; at: Date; ip: string | null }>();

  return {
    /** Counts one answered request of a key (flushed to the hourly usage table). */
    recordUsage: (keyId: string, status: number, errorCode: string | null, ip: string | null) => {
      const t = new Date(now());
      const hour = new Date(t.getTime() - (t.getTime() % 3_600_000));
      const statusClass = Math.floor(status / 100);
      const k = `${keyId}|${hour.getTime()}|${statusClass}`;
      const u = usage.get(k);
      if (u) u.requests += 1;
      else usage.set(k, { keyId, hour, statusClass, requests: 1 });
      if (errorCode) {
        const day = t.toISOString().slice(0, 10);
        const ek = `${keyId}|${day}|${errorCode}`;
        const e = errors.get(ek);
        if (e) e.requests += 1;
        else errors.set(ek, { keyId, day, code: errorCode, requests: 1 });
      }
      touched.set(keyId, { keyId, at: t, ip });
    },

    flushUsage: async () => {
      const [u, e, t] = [usage, errors, touched];
      usage = new Map();
      errors = new Map();
      touched = new Map();
      try {
        await repo.addUsage(db, [...u.values()]);
        await repo.addErrors(db, [...e.values()]);
        await repo.touchKeys(db, [...t.values()]);
      } catch (err) {
        deps.logger.warn({ err }, 'API key usage flush failed; counts of this interval are lost');
      }
    },
  };
}
