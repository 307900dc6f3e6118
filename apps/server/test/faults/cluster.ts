import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';

/** One Wren process of the fault run's cluster (`api` or `worker` role), restartable on its port. */
export interface WrenNode {
  name: string;
  role: 'api' | 'worker';
  port: number;
  url: string;
  /** kill -9 (no shutdown of any kind). */
  kill(): Promise<void>;
  start(): Promise<void>;
  /** Answers its readiness check (API: /readyz; worker: its health port's /readyz). */
  ready(): Promise<boolean>;
  stop(): Promise<void>;
  readonly running: boolean;
}

export const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });

export async function createNode(opts: {
  name: string;
  role: 'api' | 'worker';
  serverRoot: string;
  runDir: string;
  env: Record<string, string>;
}): Promise<WrenNode> {
  const port = await freePort();
  const dataDir = path.join(opts.runDir, opts.name);
  mkdirSync(dataDir, { recursive: true });
  const log = createWriteStream(path.join(opts.runDir, `${opts.name}.log`), { flags: 'a' });
  let child: ChildProcess | null = null;
  const url = `http://127.0.0.1:${port}`;

  const ready = async () => {
    try {
      const res = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2000) });
      return res.status === 200;
    } catch {
      return false;
    }
  };

  const node: WrenNode = {
    name: opts.name,
    role: opts.role,
    port,
    url,
    get running() {
      return child !== null && child.exitCode === null && child.signalCode === null;
    },
    async start() {
      const c = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'start'], {
        cwd: opts.serverRoot,
        env: {
          ...process.env,
          ...opts.env,
          ROLE: opts.role,
          DATA_DIR: dataDir,
          ...(opts.role === 'api' ? { PORT: String(port) } : { WORKER_HEALTH_PORT: String(port) }),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      c.stdout!.pipe(log, { end: false });
      c.stderr!.pipe(log, { end: false });
      child = c;
      const deadline = Date.now() + 60_000;
      while (!(await ready())) {
        if (c.exitCode !== null) throw new Error(`${opts.name} exited with ${c.exitCode} at start`);
        if (Date.now() > deadline) throw new Error(`${opts.name} not ready in 60 s`);
        await new Promise((r) => setTimeout(r, 200));
      }
    },
    async kill() {
      const c = child;
      if (!c || c.exitCode !== null || c.signalCode !== null) return;
      const exited = new Promise((r) => c.once('exit', r));
      c.kill('SIGKILL');
      await exited;
    },
    ready,
    async stop() {
      const c = child;
      if (!c || c.exitCode !== null || c.signalCode !== null) return;
      const exited = new Promise((r) => c.once('exit', r));
      c.kill('SIGTERM');
      const force = setTimeout(() => c.kill('SIGKILL'), 20_000);
      await exited;
      clearTimeout(force);
    },
  };
  return node;
}
