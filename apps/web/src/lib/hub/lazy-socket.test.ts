import { describe, expect, it, vi } from 'vitest';
import type { HubSocket, HubSocketFactory } from './hub-client';
import { lazySocketFactory } from './lazy-socket';

/** A recording socket: what the hub client would reach through the real library. */
function fakeSocket() {
  const on = vi.fn();
  const emit = vi.fn();
  const disconnect = vi.fn();
  const removeAllListeners = vi.fn();
  const socket: HubSocket = { on, emit, disconnect, removeAllListeners };
  return { socket, on, emit, disconnect, removeAllListeners };
}

/** A library load the test finishes by hand. */
function deferredLoad() {
  let resolve!: (factory: HubSocketFactory) => void;
  let reject!: (error: Error) => void;
  const load = vi.fn(
    () =>
      new Promise<HubSocketFactory>((res, rej) => {
        resolve = res;
        reject = rej;
      }),
  );
  return { load, resolve: (f: HubSocketFactory) => resolve(f), reject: (e: Error) => reject(e) };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('lazy hub socket', () => {
  it('hands listeners and emits made before the library loaded to the real socket, then delegates', async () => {
    const library = deferredLoad();
    const real = fakeSocket();
    const factory = vi.fn<HubSocketFactory>(() => real.socket);
    const socket = lazySocketFactory(library.load)({ token: 't1' });
    const onConnect = () => undefined;
    socket.on('connect', onConnect);
    socket.emit('JoinRoom', 'a');
    expect(real.on).not.toHaveBeenCalled();

    library.resolve(factory);
    await settle();
    expect(factory).toHaveBeenCalledWith({ token: 't1' });
    expect(real.on).toHaveBeenCalledWith('connect', onConnect);
    expect(real.emit).toHaveBeenCalledWith('JoinRoom', 'a');

    socket.emit('Later', 1);
    expect(real.emit).toHaveBeenLastCalledWith('Later', 1);
    socket.disconnect();
    expect(real.disconnect).toHaveBeenCalledTimes(1);
  });

  it('opens no connection when disconnected before the library arrived', async () => {
    const library = deferredLoad();
    const factory = vi.fn<HubSocketFactory>(() => fakeSocket().socket);
    const socket = lazySocketFactory(library.load)({ token: 't1' });
    socket.disconnect();
    library.resolve(factory);
    await settle();
    expect(factory).not.toHaveBeenCalled();
  });

  it('reports a failed load as a connection error, and loads again on the next attempt', async () => {
    const library = deferredLoad();
    const lazy = lazySocketFactory(library.load);
    const errors: Error[] = [];
    lazy({ token: 't1' }).on('connect_error', (error: Error) => errors.push(error));
    library.reject(new Error('chunk failed'));
    await settle();
    expect(errors.map((e) => e.message)).toEqual(['chunk failed']);

    const real = fakeSocket();
    const second = lazy({ token: 't2' });
    expect(library.load).toHaveBeenCalledTimes(2);
    library.resolve(() => real.socket);
    second.on('connect', () => undefined);
    await settle();
    expect(real.on).toHaveBeenCalledWith('connect', expect.any(Function));
  });

  it('loads the library once for every later connection', async () => {
    const library = deferredLoad();
    const lazy = lazySocketFactory(library.load);
    lazy({ token: 't1' });
    library.resolve(() => fakeSocket().socket);
    await settle();
    lazy({ token: 't2' });
    expect(library.load).toHaveBeenCalledTimes(1);
  });
});
