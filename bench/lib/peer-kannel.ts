import type { Dispatcher } from 'undici';
import { stopChild, track } from './child-processes';
import { ensureKannel, KANNEL_USER, startKannel } from './kannel';
import { freePorts, recipient, runLoad, startDlrReceiver } from './load';
import { CONCURRENCY, N, WINDOW } from './peer-settings';
import { us, waitForFinal, warmUp, type RunResult } from './peer-run';
import { treeCpuSeconds } from './proc-cpu';
import { startSimulator } from './wren-process';

/** Kannel's run of bench:peer: bearerbox + smsbox, sendsms requests, delivery callbacks counted. */
export async function runKannel(idArgs: string[]): Promise<RunResult> {
  const bins = ensureKannel();
  const [smscPort, adminPort, smsboxPort, sendsmsPort] = await freePorts(4);
  const sim = track(
    await startSimulator(['--port', String(smscPort), '--delay-ms', '0', '--mix', 'DELIVRD=100', ...idArgs]),
  );
  const dlr = await startDlrReceiver((type) => type === 1 || type === 2 || type === 16);
  let kannel: Awaited<ReturnType<typeof startKannel>> | undefined;
  try {
    kannel = await startKannel(bins, {
      smscPort,
      adminPort,
      smsboxPort,
      sendsmsPort,
      window: WINDOW,
      store: process.env.BENCH_KANNEL_STORE === 'file' ? 'file' : undefined,
    });
    const k = kannel;
    track(k.bearerbox);
    track(k.smsbox);
    const cpu = () => ({
      bearerbox: treeCpuSeconds(k.bearerbox.pid!),
      smsbox: treeCpuSeconds(k.smsbox.pid!),
      simulator: treeCpuSeconds(sim.pid!),
      self: process.cpuUsage(),
    });
    const kannelRequest = (i: number): Dispatcher.RequestOptions => {
      const q = new URLSearchParams({
        username: KANNEL_USER.username,
        password: KANNEL_USER.password,
        from: 'Wren',
        to: recipient(i),
        text: `Bench message ${i}`,
        'dlr-mask': '3',
        'dlr-url': `${dlr.url}?n=${i}&t=%d`,
      });
      return { path: `/cgi-bin/sendsms?${q}`, method: 'GET' };
    };
    const finalBase = await warmUp(`http://127.0.0.1:${sendsmsPort}`, kannelRequest, async () =>
      Promise.resolve(dlr.finals()),
    );
    const sentBase = await k.sent();
    const before = cpu();
    const t0 = performance.now();
    const load = runLoad(`http://127.0.0.1:${sendsmsPort}`, N, CONCURRENCY, kannelRequest);
    const w = await waitForFinal(
      load,
      async () => ({ submitted: (await k.sent()) - sentBase, final: dlr.finals() - finalBase }),
      25,
      cpu,
    );
    const after = w.measured;
    const l = await load;
    const self = { user: after.self.user - before.self.user, system: after.self.system - before.self.system };
    const done = w.final;
    return {
      name: `Kannel ${bins.version}`,
      load: l,
      submitted: w.submitted,
      submitMs: w.submitAllAt - t0,
      finalMs: (w.timedOut ? performance.now() : dlr.lastFinalAt()) - t0,
      final: done,
      timedOut: w.timedOut,
      cpu: {
        product: [
          ['bearerbox', us(after.bearerbox - before.bearerbox, l.accepted)],
          ['smsbox', us(after.smsbox - before.smsbox, l.accepted)],
        ],
        simulator: us(after.simulator - before.simulator, l.accepted),
        loadGenerator: us((self.user + self.system) / 1e6, l.accepted),
        extra: [],
      },
      notes: [
        `submitted: Kannel's admin status polled every 25 ms; delivery callbacks: ${dlr.callbacks()} (${dlr
          .byType()
          .map(([t, n]) => `type ${t}: ${n}`)
          .join(', ')}); the load generator's CPU includes receiving them`,
        `store: ${process.env.BENCH_KANNEL_STORE === 'file' ? 'file (on disk)' : 'none (in memory; BENCH_KANNEL_STORE=file for a disk store)'}, dlr-storage internal`,
      ],
    };
  } catch (err) {
    if (kannel) console.error(kannel.logTail());
    throw err;
  } finally {
    await kannel?.stop();
    await stopChild(sim);
    await dlr.close();
  }
}
