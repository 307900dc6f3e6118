import { ADMIN_API } from '@wren/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../test/client';
import { startServer, type TestServer } from '../../../test/harness';

const TOKEN = 'metrics-token-0123456789abcdef';
let server: TestServer;
let user: ApiClient;

const scrape = (token?: string) =>
  fetch(`${server.url}/metrics`, { headers: token ? { authorization: `Bearer ${token}` } : {} });

/** The value of one sample line, e.g. value(text, 'wren_queue_depth{lane="single"}'). */
function value(text: string, sample: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${sample} `));
  return line ? Number(line.slice(sample.length + 1)) : undefined;
}

beforeAll(async () => {
  server = await startServer(
    { METRICS_TOKEN: TOKEN, SIMULATOR_DELAY_MS: '50', SIMULATOR_MIX: 'DELIVRD=100' },
    { worker: true },
  );
  user = server.client();
  await user.register();
});
afterAll(() => server?.close());

describe('GET /metrics', () => {
  it('is off without METRICS_TOKEN', async () => {
    const off = await startServer();
    try {
      expect((await fetch(`${off.url}/metrics`)).status).toBe(404);
    } finally {
      await off.close();
    }
  });

  it('needs the bearer token', async () => {
    expect((await scrape()).status).toBe(401);
    expect((await scrape('wrong-token-0123456789abcdef')).status).toBe(401);
    const ok = await scrape(TOKEN);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toContain('text/plain');
  });

  it('reports requests by route and status, final statuses, binds, window, queue, receipts and hub sockets', async () => {
    await scrape(TOKEN); // sets the event watermark: counters count what happens after it
    expect((await user.get('/api/me')).status).toBe(200);
    expect((await user.get('/api/groups/not-a-uuid')).status).toBeGreaterThanOrEqual(400);
    const sent = await user.post('/api/sms/single', {
      recipients: ['+14155550101', '+14155550102'],
      text: 'metrics',
    });
    expect(sent.status).toBe(202);
    // Both messages are delivered (the simulator's mix is all DELIVRD) and the worker has reported.
    await expect
      .poll(
        async () => {
          const log = (await user.get('/api/sms/log')).body.items as { status: string }[];
          return log.filter((m) => m.status === 'delivered').length;
        },
        { timeout: 15_000, interval: 200 },
      )
      .toBe(2);
    await new Promise((r) => setTimeout(r, 1200));
    const text = await (await scrape(TOKEN)).text();
    expect(
      value(text, 'wren_http_request_duration_seconds_count{method="GET",route="/api/me",status="200"}'),
    ).toBeGreaterThanOrEqual(1);
    expect(text).toMatch(
      /wren_http_request_duration_seconds_count\{method="GET",route="\/api\/groups\/:id",status="4\d\d"\}/,
    );
    expect(value(text, 'wren_messages_final_total{status="delivered"}')).toBeGreaterThanOrEqual(2);
    expect(value(text, 'wren_smpp_submit_seconds_count')).toBeGreaterThanOrEqual(2);
    expect(text).toMatch(/wren_smpp_binds_up\{worker="[^"]+",connection="simulator"\} 2/);
    expect(text).toMatch(/wren_smpp_window_in_use\{worker="[^"]+",connection="simulator"\} \d+/);
    expect(value(text, 'wren_queue_depth{lane="single"}')).toBe(0);
    expect(value(text, 'wren_queue_oldest_age_seconds{lane="otp"}')).toBe(0);
    expect(value(text, 'wren_receipts_parked')).toBe(0);
    expect(value(text, 'wren_hub_sockets')).toBe(0);
    expect(text).toContain('wren_webhook_attempts_total');
  });

  it("an API-only node shows every live worker's submit and receipt figures, labelled by worker", async () => {
    const web = await startServer({ METRICS_TOKEN: TOKEN }, { databaseUrl: server.databaseUrl });
    try {
      const sent = await user.post('/api/sms/single', { recipients: ['+14155550111'], text: 'web node' });
      expect(sent.status).toBe(202);
      const workerId = (
        await server.ctx.db.selectFrom('worker_heartbeats').select('worker_id').executeTakeFirstOrThrow()
      ).worker_id;
      const w = `worker="${workerId}"`;
      // The worker's heartbeat carries its totals, including this message's delivery receipt.
      await expect
        .poll(
          async () => {
            const res = await fetch(`${web.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
            return value(await res.text(), `wren_worker_receipts_final_total{${w},status="delivered"}`) ?? 0;
          },
          { timeout: 15_000, interval: 250 },
        )
        .toBeGreaterThanOrEqual(1);
      const text = await (
        await fetch(`${web.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })
      ).text();
      expect(text).toContain('# TYPE wren_worker_smpp_submit_seconds histogram');
      expect(value(text, `wren_worker_smpp_submit_seconds_count{${w}}`)).toBeGreaterThanOrEqual(1);
      expect(value(text, `wren_worker_smpp_submit_seconds_bucket{${w},le="+Inf"}`)).toBe(
        value(text, `wren_worker_smpp_submit_seconds_count{${w}}`),
      );
      expect(value(text, `wren_worker_heartbeat_age_seconds{${w},role="all"}`)).toBeLessThan(10);
      // The in-process families say where the figures of an API-only node are.
      expect(text).toMatch(/# HELP wren_smpp_submit_seconds .*see wren_worker_smpp_submit_seconds/);
    } finally {
      await web.close();
    }
  });

  it('shows the same binds and the submits of this minute on the admin system status', async () => {
    const admin = server.client();
    const reg = await admin.register();
    await server.ctx.services.users.promote(reg.user.username);
    admin.useSession(
      (await admin.post('/api/auth/login', { username: reg.user.username, password: reg.password })).body,
    );
    const status = (await admin.get(ADMIN_API.system)).body;
    expect(status.connections).toHaveLength(1);
    expect(status.connections[0]).toMatchObject({
      name: 'simulator',
      binds: 2,
      bound: 2,
      window: 100,
      paused: false,
    });
    const total = status.throughput.reduce((a: number, t: { submitted: number }) => a + t.submitted, 0);
    const delivered = status.throughput.reduce((a: number, t: { delivered: number }) => a + t.delivered, 0);
    expect(total).toBeGreaterThanOrEqual(2);
    expect(delivered).toBeGreaterThanOrEqual(2);
    expect(status.workers[0].alive).toBe(true);
    expect(status.database.ok).toBe(true);
    expect(status.disk.totalBytes).toBeGreaterThan(0);

    // A paused connection unbinds (counted on the simulator's side) and keeps messages queued until
    // it is resumed, when it binds again.
    const sim = server.worker!.simulator!;
    const before = sim.stats();
    expect(before.boundSessions).toBe(2);
    expect(
      (await admin.post('/api/admin/system/connections/simulator/pause', { reason: 'maintenance' })).status,
    ).toBe(200);
    await expect
      .poll(async () => (await admin.get(ADMIN_API.system)).body.connections[0].paused, {
        timeout: 5000,
        interval: 200,
      })
      .toBe(true);
    await expect.poll(() => sim.stats().boundSessions, { timeout: 10_000, interval: 100 }).toBe(0);
    expect(sim.stats().unbinds).toBe(before.unbinds + 2);
    await expect
      .poll(async () => (await admin.get(ADMIN_API.system)).body.connections[0].bound, {
        timeout: 10_000,
        interval: 200,
      })
      .toBe(0);
    const held = await user.post('/api/sms/single', { recipients: ['+14155550103'], text: 'held' });
    expect(held.status).toBe(202);
    await new Promise((r) => setTimeout(r, 1500));
    const heldId = held.body.messages?.[0]?.id ?? held.body.items?.[0]?.id;
    const log = (await user.get('/api/sms/log')).body.items as {
      id: string;
      status: string;
      recipient?: string;
    }[];
    const heldRow = heldId ? log.find((m) => m.id === heldId) : log[0];
    expect(heldRow?.status).toBe('queued');
    expect((await admin.post('/api/admin/system/connections/simulator/resume', {})).status).toBe(200);
    await expect.poll(() => sim.stats().boundSessions, { timeout: 10_000, interval: 100 }).toBe(2);
    expect(sim.stats().binds).toBe(before.binds + 2);
    await expect
      .poll(
        async () =>
          (await user.get('/api/sms/log')).body.items.find((m: { id: string }) => m.id === heldRow?.id)
            ?.status,
        {
          timeout: 15_000,
          interval: 250,
        },
      )
      .toBe('delivered');
    expect((await admin.post('/api/admin/system/connections/nope/pause', {})).status).toBe(404);

    // A worker that starts while the connection is paused never binds it; a resume does.
    expect(
      (await admin.post('/api/admin/system/connections/simulator/pause', { reason: 'restart' })).status,
    ).toBe(200);
    await expect.poll(() => sim.stats().boundSessions, { timeout: 10_000, interval: 100 }).toBe(0);
    const restarted = await server.restartWorker();
    const fresh = restarted.simulator!;
    expect(fresh.stats()).toMatchObject({ binds: 0, boundSessions: 0 });
    await new Promise((r) => setTimeout(r, 1500)); // a report or two: still not bound
    expect(fresh.stats().binds).toBe(0);
    expect((await admin.post('/api/admin/system/connections/simulator/resume', {})).status).toBe(200);
    await expect.poll(() => fresh.stats().boundSessions, { timeout: 10_000, interval: 100 }).toBe(2);
  });
});
