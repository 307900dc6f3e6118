import {
  HUB_PUSHES,
  HUB_TIMEOUT_MS,
  HUB_UNAUTHORIZED,
  type HubAck,
  type HubClientEvents,
  type HubFailure,
  type HubPush,
  type HubRequest,
  type HubServerEvents,
} from '@wren/contracts';

/** Waits before each reconnect attempt after a dropped connection (SPEC.md §4, §9), then give up. */
export const RECONNECT_WAITS_MS = [5, 20, 60, 120, 180] as const;

/** The second 'Unauthorized' connect failure in a row stops the connection and signs out. */
export const MAX_UNAUTHORIZED = 2;

/** A request without a reply within this time fails (the server's own timeout, SPEC.md §9). */
export const HUB_REQUEST_TIMEOUT_MS = HUB_TIMEOUT_MS;

export const HubState = {
  Disconnected: 'Disconnected',
  Connecting: 'Connecting',
  Connected: 'Connected',
  Reconnecting: 'Reconnecting',
  Disconnecting: 'Disconnecting',
} as const;
export type HubState = (typeof HubState)[keyof typeof HubState];

export interface HubSnapshot {
  state: HubState;
  /** False while reconnecting; true once connected or reconnected. */
  connected: boolean;
}

/** The part of a Socket.IO client socket the hub client uses (tests pass a fake). */
export interface HubSocket {
  on(event: string, listener: (...args: never[]) => void): unknown;
  emit(event: string, ...args: unknown[]): unknown;
  removeAllListeners(): unknown;
  disconnect(): unknown;
}

/** Opens one connection attempt with this access token (no automatic reconnection). */
export type HubSocketFactory = (options: { token: string }) => HubSocket;

/** Why the client gave up: the user is signed out after each of these. */
export type HubCloseReason = 'reconnect-failed' | 'unauthorized' | 'refresh-failed';

type ArgsOf<M extends HubRequest> = Parameters<HubClientEvents[M]> extends [...infer A, unknown] ? A : never;
type DataOf<M extends HubRequest> =
  Parameters<HubClientEvents[M]> extends [...unknown[], (ack: HubAck<infer T>) => void] ? T : never;
type PushArgs<P extends HubPush> = Parameters<HubServerEvents[P]>;

export type PushListener = <P extends HubPush>(push: P, ...args: PushArgs<P>) => void;

export interface HubClientOptions {
  createSocket: HubSocketFactory;
  getAccessToken: () => string | null;
  /** The HTTP client's token refresh (one refresh in flight, shared). */
  refreshSession: () => Promise<void>;
  /** Toasts: while connecting, once connected. */
  notify?: { connecting?: () => void; connected?: () => void };
  log?: (...args: unknown[]) => void;
}

export interface HubStartOptions {
  /** Signs the user out (the menu's sign-out); called when the client gives up. */
  signOut: (reason: HubCloseReason) => unknown;
}

/** A failed reply (the HubAck error), a timeout or a call while not connected. */
export class HubRequestError extends Error {
  constructor(
    readonly method: HubRequest,
    readonly failure: HubFailure | null,
    message = failure?.message ?? 'Hub request failed',
  ) {
    super(message);
    this.name = 'HubRequestError';
  }
}

export type HubClient = ReturnType<typeof createHubClient>;

/**
 * The real-time hub connection (SPEC.md §4): a state machine over one Socket.IO socket at a time,
 * with Socket.IO's own reconnection off. A dropped connection is retried after the waits of
 * RECONNECT_WAITS_MS, then the client gives up and signs out. An 'Unauthorized' connect failure
 * refreshes the token once and reconnects; a second one in a row signs out, as does a failed
 * refresh. The snapshot is the only state kept here; the data goes to TanStack Query (hub-sync).
 */
export function createHubClient(options: HubClientOptions) {
  const { createSocket, getAccessToken, refreshSession } = options;
  const log = options.log ?? console.error;

  let snapshot: HubSnapshot = { state: HubState.Disconnected, connected: false };
  const stateListeners = new Set<() => void>();
  const connectListeners = new Set<() => void>();
  const pushListeners = new Set<PushListener>();

  let socket: HubSocket | null = null;
  let signOut: HubStartOptions['signOut'] = () => undefined;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  /** The next entry of RECONNECT_WAITS_MS to wait for. */
  let retryIndex = 0;
  let unauthorizedFailures = 0;
  /** Bumped at every stop: a refresh or timer of an earlier session does nothing. */
  let session = 0;

  const setState = (state: HubState) => {
    if (state === snapshot.state) return;
    snapshot = { state, connected: state === HubState.Connected };
    for (const listener of stateListeners) listener();
  };

  const closeSocket = () => {
    if (!socket) return;
    const old = socket;
    socket = null;
    old.removeAllListeners();
    old.disconnect();
  };

  const clearRetry = () => {
    clearTimeout(retryTimer);
    retryTimer = undefined;
  };

  /** Stops the connection and signs the user out. */
  const giveUp = (reason: HubCloseReason) => {
    const signOutNow = signOut;
    stop();
    try {
      void Promise.resolve(signOutNow(reason)).catch((error: unknown) => log('Hub sign-out failed:', error));
    } catch (error) {
      log('Hub sign-out failed:', error);
    }
  };

  const scheduleRetry = () => {
    if (retryIndex >= RECONNECT_WAITS_MS.length) {
      giveUp('reconnect-failed');
      return;
    }
    const wait = RECONNECT_WAITS_MS[retryIndex];
    retryIndex += 1;
    const mine = session;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      if (mine === session) open();
    }, wait);
  };

  const onDropped = () => {
    closeSocket();
    setState(HubState.Reconnecting);
    scheduleRetry();
  };

  const onUnauthorized = () => {
    closeSocket();
    unauthorizedFailures += 1;
    if (unauthorizedFailures >= MAX_UNAUTHORIZED) {
      giveUp('unauthorized');
      return;
    }
    const mine = session;
    refreshSession().then(
      () => {
        if (mine === session) open();
      },
      (error: unknown) => {
        if (mine !== session) return;
        log('Hub token refresh failed:', error);
        giveUp('refresh-failed');
      },
    );
  };

  /** Opens one connection attempt with the current access token. */
  function open() {
    closeSocket();
    const token = getAccessToken();
    if (!token) {
      giveUp('unauthorized');
      return;
    }
    const s = createSocket({ token });
    socket = s;
    s.on('connect', () => {
      if (socket !== s) return;
      unauthorizedFailures = 0;
      retryIndex = 0;
      setState(HubState.Connected);
      options.notify?.connected?.();
      for (const listener of connectListeners) listener();
    });
    s.on('connect_error', (error: Error) => {
      if (socket !== s) return;
      if (error?.message === HUB_UNAUTHORIZED) onUnauthorized();
      else {
        log('Hub connection failed:', error);
        onDropped();
      }
    });
    s.on('disconnect', (reason: string) => {
      if (socket !== s) return;
      log('Hub connection dropped:', reason);
      onDropped();
    });
    for (const push of HUB_PUSHES) {
      s.on(push, (...args: never[]) => {
        if (socket !== s) return;
        for (const listener of pushListeners)
          (listener as (p: HubPush, ...a: unknown[]) => void)(push, ...args);
      });
    }
  }

  /** Opens the connection when there is an access token; does nothing unless disconnected. */
  function start(startOptions: HubStartOptions): void {
    signOut = startOptions.signOut;
    if (snapshot.state !== HubState.Disconnected) return;
    if (!getAccessToken()) return;
    unauthorizedFailures = 0;
    retryIndex = 0;
    setState(HubState.Connecting);
    options.notify?.connecting?.();
    open();
  }

  /** Closes the connection (before signing out, and when the app leaves the signed-in pages). */
  function stop(): void {
    if (snapshot.state === HubState.Disconnected) return;
    session += 1;
    setState(HubState.Disconnecting);
    clearRetry();
    closeSocket();
    signOut = () => undefined;
    setState(HubState.Disconnected);
  }

  /** Calls a hub method with a reply; rejects when not connected, on an error reply or a timeout. */
  function request<M extends HubRequest>(method: M, ...args: ArgsOf<M>): Promise<DataOf<M>> {
    const s = socket;
    if (!s || !snapshot.connected) {
      return Promise.reject(new HubRequestError(method, null, 'The hub is not connected'));
    }
    return new Promise<DataOf<M>>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new HubRequestError(method, null, `${method} timed out`)),
        HUB_REQUEST_TIMEOUT_MS,
      );
      s.emit(method, ...args, (ack: HubAck<DataOf<M>>) => {
        clearTimeout(timer);
        if (ack?.ok) resolve(ack.data);
        else reject(new HubRequestError(method, ack?.ok === false ? ack.error : null));
      });
    });
  }

  return {
    start,
    stop,
    request,
    getSnapshot: (): HubSnapshot => snapshot,
    subscribe: (listener: () => void): (() => void) => {
      stateListeners.add(listener);
      return () => stateListeners.delete(listener);
    },
    /** Called at every successful connect (the first one and each reconnect). */
    onConnected: (listener: () => void): (() => void) => {
      connectListeners.add(listener);
      return () => connectListeners.delete(listener);
    },
    /** Called for every server push (HUB_PUSHES) with its arguments. */
    onPush: (listener: PushListener): (() => void) => {
      pushListeners.add(listener);
      return () => pushListeners.delete(listener);
    },
  };
}
