import {
  HUB_PATH,
  HUB_PUSHES,
  type HubAck,
  type HubClientEvents,
  type HubErrorPush,
  type HubServerEvents,
} from '@wren/contracts';
import { io, type Socket } from 'socket.io-client';

/** Test helpers: a hub client as the web app opens it (no automatic reconnection in tests). */
export type HubClient = Socket<HubServerEvents, HubClientEvents>;

export function openHub(
  url: string,
  opts: { token?: string; query?: Record<string, string> } = {},
): HubClient {
  return io(url, {
    path: HUB_PATH,
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    auth: opts.token === undefined ? {} : { token: opts.token },
    query: opts.query,
  });
}

/** Resolves once connected; rejects with the connect error (its message is the server's). */
export function connectHub(url: string, token: string): Promise<HubClient> {
  const socket = openHub(url, { token });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', (err) => {
      socket.close();
      reject(err);
    });
  });
}

/** The connect error message for these options (fails the test if it connects). */
export function connectErrorOf(
  url: string,
  opts: { token?: string; query?: Record<string, string> },
): Promise<string> {
  const socket = openHub(url, opts);
  return new Promise((resolve, reject) => {
    socket.once('connect', () => {
      socket.close();
      reject(new Error('connected, expected a connect error'));
    });
    socket.once('connect_error', (err) => {
      socket.close();
      resolve(err.message);
    });
  });
}

/** Calls a request method and returns its HubAck. */
export async function call<T = unknown>(
  socket: HubClient,
  method: string,
  ...args: unknown[]
): Promise<HubAck<T>> {
  const s = socket as unknown as {
    timeout(ms: number): { emitWithAck(ev: string, ...a: unknown[]): Promise<HubAck<T>> };
  };
  return s.timeout(10_000).emitWithAck(method, ...args);
}

/** Calls a request method and returns its data, failing on an error reply. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read replies loosely
export async function data<T = any>(socket: HubClient, method: string, ...args: unknown[]): Promise<T> {
  const ack = await call<T>(socket, method, ...args);
  if (!ack.ok) throw new Error(`${method} failed: ${JSON.stringify(ack.error)}`);
  return ack.data;
}

/** Every push a socket receives, in order, with its arguments and arrival time (Date.now()). */
export function recordPushes(socket: HubClient) {
  const pushes: { event: string; args: unknown[]; at: number }[] = [];
  const errors: HubErrorPush[] = [];
  for (const event of HUB_PUSHES) {
    (socket as unknown as Socket).on(event, (...args: unknown[]) =>
      pushes.push({ event, args, at: Date.now() }),
    );
  }
  socket.on('HubError', (e) => errors.push(e));
  return {
    pushes,
    errors,
    count: (event: string) => pushes.filter((p) => p.event === event).length,
    clear: () => {
      pushes.length = 0;
      errors.length = 0;
    },
  };
}

export async function until(check: () => boolean | Promise<boolean>, timeoutMs = 10_000, what = 'condition') {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Waits until the node has no coalescing window open: every push it had to send, trailing ones
 * included, went out at least one window ago. Use it instead of sleeping past the window before
 * counting pushes (or checking that none came).
 */
export const pushesSettled = (app: { hub: { pushWindowsOpen(): number } }, timeoutMs = 10_000) =>
  until(() => app.hub.pushWindowsOpen() === 0, timeoutMs, 'hub push windows to close');
