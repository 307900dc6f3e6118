import type { HubSocket, HubSocketFactory } from './hub-client';

/**
 * A hub socket whose library (socket.io-client, ~15 KB gzip) loads when the first connection is
 * opened instead of with the page: the signed-in layout draws without waiting for it. Listeners
 * and emits made meanwhile are recorded and handed to the real socket once it exists; a disconnect
 * before then means no connection is made; a failed load is reported as a connection error, so
 * the hub client retries as after any failed attempt.
 */
export function lazySocketFactory(load: () => Promise<HubSocketFactory>): HubSocketFactory {
  let loading: Promise<HubSocketFactory> | undefined;
  return (options) => {
    const listeners: [string, (...args: never[]) => void][] = [];
    const emits: unknown[][] = [];
    let real: HubSocket | undefined;
    let closed = false;

    loading ??= load().catch((error: unknown) => {
      loading = undefined; // the next attempt loads again
      throw error;
    });
    loading.then(
      (factory) => {
        if (closed) return;
        real = factory(options);
        for (const [event, listener] of listeners) real.on(event, listener);
        for (const args of emits) real.emit(...(args as [string, ...unknown[]]));
      },
      (error: unknown) => {
        if (closed) return;
        const failure = error instanceof Error ? error : new Error(String(error));
        for (const [event, listener] of listeners)
          if (event === 'connect_error') (listener as (e: Error) => void)(failure);
      },
    );

    const socket: HubSocket = {
      on(event, listener) {
        if (real) real.on(event, listener);
        else listeners.push([event, listener]);
        return socket;
      },
      emit(event, ...args) {
        if (real) real.emit(event, ...args);
        else emits.push([event, ...args]);
        return socket;
      },
      removeAllListeners() {
        listeners.length = 0;
        real?.removeAllListeners();
        return socket;
      },
      disconnect() {
        closed = true;
        real?.disconnect();
        return socket;
      },
    };
    return socket;
  };
}
