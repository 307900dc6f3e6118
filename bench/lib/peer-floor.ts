import { spawn } from 'node:child_process';
import type { Dispatcher } from 'undici';
import { stopChild, track } from './child-processes';
import { freePorts, recipient, runLoad } from './load';
import { CONCURRENCY, N, WARMUP, WINDOW } from './peer-settings';
import { sleep, us, warmUp } from './peer-run';
import { treeCpuSeconds } from './proc-cpu';
import { repoRoot, startSimulator } from './wren-process';

/** The Node.js floor: see the header. Its parts are printed; the load generator is the same. */
export async function runFloor(idArgs: string[]) {
  const [httpPort, smscPort] = await freePorts(2);
  const child = (args: string[]) =>
    track(
      spawn(process.execPath, ['--import', 'tsx', 'bench/lib/node-floor-child.ts', ...args], {
        cwd: repoRoot,
        stdio: ['ignore', 'pipe', 'inherit'],
      }),
    );
  const http = child(['http', String(httpPort)]);
  let httpUs: number;
  try {
    await waitForPort(httpPort);
    const floorRequest = (i: number): Dispatcher.RequestOptions => ({
      path: '/api/sms/single',
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ recipients: [recipient(i)], text: `Bench message ${i}` }),
    });
    let answered = 0;
    await warmUp(
      `http://127.0.0.1:${httpPort}`,
      (i) => {
        answered += 1;
        return floorRequest(i);
      },
      async () => Promise.resolve(answered),
    );
    const before = treeCpuSeconds(http.pid!);
    const load = await runLoad(`http://127.0.0.1:${httpPort}`, N, CONCURRENCY, floorRequest);
    if (load.errors > 0)
      throw new Error(`HTTP floor: ${load.errors} errors: ${load.errorSamples.join('; ')}`);
    httpUs = us(treeCpuSeconds(http.pid!) - before, load.accepted);
  } finally {
    await stopChild(http);
  }
  const sim = track(
    await startSimulator(['--port', String(smscPort), '--delay-ms', '0', '--mix', 'DELIVRD=100', ...idArgs]),
  );
  let smppUs: number;
  try {
    const client = child(['smpp', String(smscPort), String(N), String(WINDOW), String(WARMUP)]);
    let out = '';
    client.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    const code = await new Promise<number | null>((resolve) => client.once('exit', resolve));
    if (code !== 0) throw new Error(`SMPP floor: the client exited with ${code}`);
    smppUs = (JSON.parse(out) as { usPerMessage: number }).usPerMessage;
  } finally {
    await stopChild(sim);
  }
  console.log('\n== Node.js floor (Fastify + the smpp library, nothing stored, nothing checked)');
  console.log(
    `HTTP: a Fastify JSON route answering the same ${N} requests: ${httpUs.toFixed(0)} µs per request`,
  );
  console.log(
    `SMPP: the smpp library submitting ${N} messages (window ${WINDOW}) and answering their receipts: ${smppUs.toFixed(0)} µs per message`,
  );
  console.log(
    `together: ${(httpUs + smppUs).toFixed(0)} µs per message, before any storage; add bench:pg-floor at the ` +
      `same batch size for PostgreSQL's least share`,
  );
  return httpUs + smppUs;
}

async function waitForPort(port: number) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const res = await fetch(`http://127.0.0.1:${port}/`).catch(() => undefined);
    if (res) return;
    if (Date.now() > deadline) throw new Error(`nothing listened on ${port}`);
    await sleep(100);
  }
}
