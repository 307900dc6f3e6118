import type { HubAck } from '@wren/contracts';
import { vi } from 'vitest';
import { createHubClient, type HubSocket, type HubSocketFactory } from '../hub-client';

type Listener = (...args: unknown[]) => void;
type Reply = (...args: unknown[]) => HubAck<unknown>;

/**
 * A fake Socket.IO socket: the test plays the server. `connect()`, `fail()` and `drop()` fire the
 * events a real socket fires; requests are answered from `replies` (the fake server's methods).
 */
export class FakeSocket implements HubSocket {
  readonly listeners = new Map<string, Listener[]>();
  readonly emitted: { event: string; args: unknown[] }[] = [];
  disconnected = false;

  constructor(
    readonly token: string,
    private readonly replies: Map<string, Reply>,
  ) {}

  on(event: string, listener: (...args: never[]) => void): this {
    const list = this.listeners.get(event) ?? [];
    list.push(listener as Listener);
    this.listeners.set(event, list);
    return this;
  }

  emit(event: string, ...args: unknown[]): this {
    this.emitted.push({ event, args });
    const ack = args.at(-1);
    const reply = this.replies.get(event);
    if (typeof ack === 'function' && reply) {
      const result = reply(...args.slice(0, -1));
      queueMicrotask(() => (ack as (a: HubAck<unknown>) => void)(result));
    }
    return this;
  }

  removeAllListeners(): this {
    this.listeners.clear();
    return this;
  }

  disconnect(): this {
    this.disconnected = true;
    return this;
  }

  /** Fires an event as the server / transport would. */
  fire(event: string, ...args: unknown[]): void {
    for (const listener of [...(this.listeners.get(event) ?? [])]) listener(...args);
  }

  connect(): void {
    this.fire('connect');
  }

  /** A failed connect; 'Unauthorized' is the hub's bad-token message. */
  fail(message = 'websocket error'): void {
    this.fire('connect_error', new Error(message));
  }

  /** The connection drops (server gone, network down). */
  drop(reason = 'transport close'): void {
    this.fire('disconnect', reason);
  }

  /** A server push. */
  push(event: string, ...args: unknown[]): void {
    this.fire(event, ...args);
  }

  requests(method: string): number {
    return this.emitted.filter((e) => e.event === method).length;
  }
}

/** A hub client wired to fake sockets, a fake token store and a fake token refresh. */
export function fakeHub(opts: { token?: string | null; refresh?: () => Promise<string> } = {}) {
  let token: string | null = opts.token === undefined ? 'token-1' : opts.token;
  const sockets: FakeSocket[] = [];
  const replies = new Map<string, Reply>();
  const createSocket: HubSocketFactory = vi.fn(({ token: t }: { token: string }) => {
    const socket = new FakeSocket(t, replies);
    sockets.push(socket);
    return socket;
  });
  const refreshSession = vi.fn(async () => {
    token = await (opts.refresh ?? (async () => `${token}-refreshed`))();
  });
  const signOut = vi.fn();
  const log = vi.fn();
  const notify = { connecting: vi.fn(), connected: vi.fn() };
  const client = createHubClient({
    createSocket,
    getAccessToken: () => token,
    refreshSession,
    notify,
    log,
  });
  const states: string[] = [];
  client.subscribe(() => states.push(client.getSnapshot().state));
  return {
    client,
    sockets,
    replies,
    createSocket,
    refreshSession,
    signOut,
    log,
    notify,
    /** Every state the client entered, in order (not the initial Disconnected). */
    states,
    /** The socket of the current (latest) attempt. */
    last: () => sockets.at(-1)!,
    setToken: (t: string | null) => {
      token = t;
    },
    start: () => client.start({ signOut }),
  };
}

/** Lets queued microtasks (acks, refresh promises) run. */
export const flush = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};
