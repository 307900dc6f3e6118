import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  advanceUntil,
  cleanup,
  connection,
  fakeTime,
  gateway,
  ioWait,
  simulator,
  sms,
} from './smpp-test-kit';
import { CLASSIFY_AFTER_MS } from './smpp-flaps';

// Issue 45, defect 3: two binds against an SMSC that allows one session per system_id/system_type
// (Kannel's opensmppbox) flapped for ever. Now the connection keeps one bind once each new bind has
// made the SMSC close an older session a few times in a row, and says so (status and log); an SMSC
// that crashes sessions shortly after binding is not mistaken for that. Faked timers, real sockets.

afterEach(async () => {
  vi.useRealTimers();
  await cleanup();
});

/** A logger that keeps its records (JSON objects) for assertions. */
function capturingLogger() {
  const records: { level: number; msg: string; [k: string]: unknown }[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void records.push(JSON.parse(line)) });
  return { logger, warnings: () => records.filter((r) => r.level === 40) };
}

// The gateway's defaults (1 s backoff base, 10 s flap window, 3 flaps before the warning), with
// the backoff capped at 4 s so that the crash cases below go through several cycles quickly.
const timing = { binds: 2, reconnectBaseMs: 1000, reconnectMaxMs: 4000, flapSeconds: 10, flapWarnAfter: 3 };

describe('one session per system_type (multiple login)', () => {
  it.each(['trx', 'tx+rx'] as const)(
    '%s: two binds settle to one after 3 replacements, stay there, and the status and log say so',
    async (bindMode) => {
      const clock = fakeTime();
      const smsc = await simulator({ oneSessionPerSystemType: true });
      let binds = 0;
      smsc.on('bind', () => binds++);
      const log = capturingLogger();
      // No enquire_link in this test, so that faked time can move 10 s at a time.
      const conn = connection(smsc, { ...timing, bindMode, enquireLinkSeconds: 3600, clock });
      const gw = await gateway([conn], { logger: log.logger });
      const settledIn = await advanceUntil(() => gw.status()[0]!.keptBinds === 1, {
        stepMs: 50,
        maxMs: 60_000,
        what: 'kept to one bind',
      });
      expect(settledIn).toBeLessThan(30_000);

      // With tx+rx the kept pair's receiver may be in its backoff, replaced by the other pair's: it binds.
      const sessionsPerBind = bindMode === 'trx' ? 1 : 2;
      const boundSessions = () => gw.status()[0]!.sessions.filter((s) => s.state === 'bound').length;
      await advanceUntil(() => boundSessions() === sessionsPerBind, { stepMs: 50, maxMs: 40_000 });
      // A close the SMSC made just before keeping one is still classified (within CLASSIFY_AFTER_MS).
      await vi.advanceTimersByTimeAsync(CLASSIFY_AFTER_MS);
      await ioWait(5);
      const replaced = gw.status()[0]!.replacedSessions;
      expect(replaced).toBeGreaterThanOrEqual(3);

      // Ten faked minutes later: no bind was tried again, one session per role lives, nothing flaps.
      const bindsAtSettle = binds;
      const replacedAtSettle = smsc.stats().sessionsReplaced;
      for (let i = 0; i < 60; i++) {
        await vi.advanceTimersByTimeAsync(10_000);
        await ioWait(2);
      }
      expect(binds).toBe(bindsAtSettle);
      expect(smsc.stats().sessionsReplaced).toBe(replacedAtSettle);
      expect(smsc.stats().boundSessions).toBe(sessionsPerBind);
      const status = gw.status()[0]!;
      expect(status).toMatchObject({ binds: 2, bound: 1, keptBinds: 1, flapping: false });
      expect(status.replacedSessions).toBe(replaced);
      expect(status.bindsNotice).toMatch(/one session per system_id\/system_type/);
      expect(status.bindsNotice).toMatch(/SMSC_BINDS=1/);
      const states = status.sessions.map((s) => s.state);
      expect(states.filter((s) => s === 'bound')).toHaveLength(sessionsPerBind);
      expect(states.filter((s) => s === 'stopped')).toHaveLength(sessionsPerBind);
      expect(await gw.submit(sms())).toMatchObject({ kind: 'accepted' });

      const kept = log.warnings().filter((r) => /keeps 1 bind/.test(r.msg));
      expect(kept).toHaveLength(1);
      expect(kept[0]!.msg).toMatch(/SMSC_BINDS/);
      expect(kept[0]).toMatchObject({ connection: 'main', binds: 2, keptBinds: 1, setting: 'SMSC_BINDS' });
    },
  );
});

describe('an SMSC that crashes sessions 8 s after a bind is no multiple login', () => {
  it.each([
    ['every session drops 8 s after a bind', false],
    ['the new session drops 8 s after its bind, the older one stays', true],
  ])('%s', async (_, perSession) => {
    const clock = fakeTime();
    const smsc = await simulator(perSession ? { dropAfterBindMs: 8000 } : {});
    if (!perSession) {
      let armed = false;
      smsc.on('bind', () => {
        if (armed) return;
        armed = true;
        setTimeout(() => {
          armed = false;
          smsc.dropAll();
        }, 8000);
      });
    }
    const log = capturingLogger();
    const gw = await gateway([connection(smsc, { ...timing, clock })], { logger: log.logger });
    await advanceUntil(() => gw.status()[0]!.flaps >= 6, { stepMs: 100, maxMs: 180_000, what: '6 flaps' });
    const status = gw.status()[0]!;
    expect(status).toMatchObject({ binds: 2, keptBinds: null, replacedSessions: 0, bindsNotice: null });
    expect(status.sessions.map((s) => s.state)).not.toContain('stopped'); // both binds keep trying
    expect(smsc.stats().sessionsReplaced).toBe(0);
    const warnings = log.warnings().map((r) => r.msg);
    expect(warnings.filter((m) => /keeps 1 bind/.test(m))).toEqual([]);
    const flapping = warnings.filter((m) => /is flapping/.test(m));
    expect(flapping).toHaveLength(1);
    expect(flapping[0]).not.toMatch(/allows one session per system_id/);
    expect(flapping[0]).toMatch(/no older session was closed/);
  });
});
