import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { Pool, type Dispatcher } from 'undici';

/** 100,000 distinct valid numbers (ten area codes × 555-0000…9999), so no cache sees a repeat. */
const AREA_CODES = [212, 646, 718, 917, 347, 415, 310, 312, 617, 202];
export const recipient = (i: number) =>
  `+1${AREA_CODES[Math.floor(i / 10_000) % AREA_CODES.length]}555${String(i % 10_000).padStart(4, '0')}`;

export interface LoadResult {
  accepted: number;
  errors: number;
  /** The first few error responses, for the report. */
  errorSamples: string[];
  /** performance.now() of the first request and of the last response. */
  started: number;
  ended: number;
  latencies: number[];
}

/**
 * The load generator: `n` HTTP requests, `concurrency` at a time over an undici Pool with as many
 * keep-alive connections; `request(i)` builds request i, a 2xx answer counts as accepted.
 */
export async function runLoad(
  origin: string,
  n: number,
  concurrency: number,
  request: (i: number) => Dispatcher.RequestOptions,
): Promise<LoadResult> {
  const pool = new Pool(origin, { connections: concurrency, pipelining: 1 });
  const result: LoadResult = {
    accepted: 0,
    errors: 0,
    errorSamples: [],
    started: 0,
    ended: 0,
    latencies: [],
  };
  let next = 0;
  result.started = performance.now();
  try {
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < n) {
          const i = next++;
          const t = performance.now();
          try {
            const res = await pool.request(request(i));
            const body = await res.body.text();
            if (res.statusCode >= 200 && res.statusCode < 300) result.accepted += 1;
            else {
              result.errors += 1;
              if (result.errorSamples.length < 3)
                result.errorSamples.push(`${res.statusCode} ${body.slice(0, 200)}`);
            }
          } catch (err) {
            result.errors += 1;
            if (result.errorSamples.length < 3) result.errorSamples.push(String(err));
          }
          result.latencies.push(performance.now() - t);
        }
      }),
    );
  } finally {
    result.ended = performance.now();
    await pool.close();
  }
  return result;
}

/**
 * A local HTTP receiver for Kannel's delivery callbacks (dlr-url): counts callbacks by type and the
 * distinct messages that reached a final type, and notes when the last final one arrived.
 */
export async function startDlrReceiver(isFinal: (type: number) => boolean) {
  const finals = new Set<string>();
  const byType = new Map<number, number>();
  let lastFinalAt = 0;
  let callbacks = 0;
  const server: Server = createServer((req, res) => {
    const q = new URL(req.url ?? '/', 'http://x').searchParams;
    const type = Number(q.get('t'));
    callbacks += 1;
    byType.set(type, (byType.get(type) ?? 0) + 1);
    if (isFinal(type)) {
      const before = finals.size;
      finals.add(q.get('n') ?? '');
      if (finals.size > before) lastFinalAt = performance.now();
    }
    res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/dlr`,
    finals: () => finals.size,
    lastFinalAt: () => lastFinalAt,
    callbacks: () => callbacks,
    byType: () => [...byType].sort(([a], [b]) => a - b),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Ports on 127.0.0.1 that are free now (the OS picks them; all distinct). */
export async function freePorts(n: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: n },
      () =>
        new Promise<ReturnType<typeof createTcpServer>>((resolve, reject) => {
          const server = createTcpServer();
          server.once('error', reject);
          server.listen(0, '127.0.0.1', () => resolve(server));
        }),
    ),
  );
  const ports = servers.map((s) => (s.address() as AddressInfo).port);
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  return ports;
}
