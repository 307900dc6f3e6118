import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HubState, MAX_UNAUTHORIZED, RECONNECT_WAITS_MS } from './hub-client';
import { fakeHub, flush } from './test/fake-hub';

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

/** Starts a fake hub and completes the first connect. */
function connected(opts?: Parameters<typeof fakeHub>[0]) {
  const h = fakeHub(opts);
  h.start();
  h.last().connect();
  return h;
}

describe('SPEC §4: the connection states are Disconnected, Connecting, Connected, Reconnecting, Disconnecting', () => {
  it('constants: reconnect waits 5, 20, 60, 120, 180; at most 2 failed unauthorized connects', () => {
    expect(RECONNECT_WAITS_MS).toEqual([5, 20, 60, 120, 180]);
    expect(MAX_UNAUTHORIZED).toBe(2);
  });

  it('starts Disconnected, and stays so without an access token (nothing is opened)', () => {
    const h = fakeHub({ token: null });
    expect(h.client.getSnapshot()).toEqual({ state: HubState.Disconnected, connected: false });
    h.start();
    expect(h.client.getSnapshot().state).toBe(HubState.Disconnected);
    expect(h.createSocket).not.toHaveBeenCalled();
    expect(h.notify.connecting).not.toHaveBeenCalled();
  });

  it('with an access token opens a connection with it: Connecting (warning toast), then Connected (success toast)', () => {
    const h = fakeHub({ token: 'tok-A' });
    h.start();
    expect(h.client.getSnapshot()).toEqual({ state: HubState.Connecting, connected: false });
    expect(h.createSocket).toHaveBeenCalledWith({ token: 'tok-A' });
    expect(h.notify.connecting).toHaveBeenCalledTimes(1);
    expect(h.notify.connected).not.toHaveBeenCalled();

    h.last().connect();
    expect(h.client.getSnapshot()).toEqual({ state: HubState.Connected, connected: true });
    expect(h.notify.connected).toHaveBeenCalledTimes(1);
    expect(h.states).toEqual([HubState.Connecting, HubState.Connected]);
  });

  it('a second start while connecting or connected opens nothing more', () => {
    const h = fakeHub();
    h.start();
    h.start();
    h.last().connect();
    h.start();
    expect(h.createSocket).toHaveBeenCalledTimes(1);
  });

  it('stop: Disconnecting → Disconnected, the socket is closed, and nothing signs out', () => {
    const h = connected();
    h.client.stop();
    expect(h.states).toEqual([
      HubState.Connecting,
      HubState.Connected,
      HubState.Disconnecting,
      HubState.Disconnected,
    ]);
    expect(h.last().disconnected).toBe(true);
    vi.runAllTimers();
    expect(h.createSocket).toHaveBeenCalledTimes(1);
    expect(h.signOut).not.toHaveBeenCalled();
  });
});

describe('SPEC §4: a dropped connection is retried after 5, 20, 60, 120 and 180 ms, then the client gives up', () => {
  it('while reconnecting the connected flag is false; once reconnected it is true', () => {
    const h = connected();
    h.last().drop();
    expect(h.client.getSnapshot()).toEqual({ state: HubState.Reconnecting, connected: false });
    vi.advanceTimersByTime(5);
    expect(h.sockets).toHaveLength(2);
    h.last().connect();
    expect(h.client.getSnapshot()).toEqual({ state: HubState.Connected, connected: true });
    expect(h.signOut).not.toHaveBeenCalled();
  });

  it('each attempt comes exactly after its wait: 5, 20, 60, 120, 180 ms', () => {
    const h = connected();
    h.last().drop();
    const attemptsAt: number[] = [];
    let elapsed = 0;
    while (attemptsAt.length < RECONNECT_WAITS_MS.length) {
      const before = h.sockets.length;
      vi.advanceTimersByTime(1);
      elapsed += 1;
      if (h.sockets.length > before) {
        attemptsAt.push(elapsed);
        elapsed = 0;
        h.last().fail('websocket error');
      }
      if (elapsed > 1000) break;
    }
    expect(attemptsAt).toEqual([5, 20, 60, 120, 180]);
  });

  it('giving up (connection closed) after the fifth failed attempt logs the user out', () => {
    const h = connected();
    let stateAtSignOut = '';
    h.signOut.mockImplementation(() => (stateAtSignOut = h.client.getSnapshot().state));
    h.last().drop();
    for (const wait of RECONNECT_WAITS_MS) {
      expect(h.signOut).not.toHaveBeenCalled();
      vi.advanceTimersByTime(wait);
      expect(h.client.getSnapshot().state).toBe(HubState.Reconnecting);
      h.last().fail('websocket error');
    }
    expect(h.sockets).toHaveLength(1 + RECONNECT_WAITS_MS.length);
    expect(h.client.getSnapshot()).toEqual({ state: HubState.Disconnected, connected: false });
    expect(h.signOut).toHaveBeenCalledTimes(1);
    expect(stateAtSignOut).toBe(HubState.Disconnected); // stopped first, then signed out
    expect(h.signOut).toHaveBeenCalledWith('reconnect-failed');
    vi.runAllTimers();
    expect(h.sockets).toHaveLength(1 + RECONNECT_WAITS_MS.length);
  });

  it('a successful reconnect starts the wait sequence over for the next drop', () => {
    const h = connected();
    h.last().drop();
    vi.advanceTimersByTime(5);
    h.last().fail();
    vi.advanceTimersByTime(20);
    h.last().connect();
    h.last().drop();
    vi.advanceTimersByTime(4);
    expect(h.sockets).toHaveLength(3);
    vi.advanceTimersByTime(1);
    expect(h.sockets).toHaveLength(4);
  });

  it('a failed first connect (server unreachable) goes through the same retries, then logs out', () => {
    const h = fakeHub();
    h.start();
    h.last().fail('websocket error');
    expect(h.client.getSnapshot().state).toBe(HubState.Reconnecting);
    for (const wait of RECONNECT_WAITS_MS) {
      vi.advanceTimersByTime(wait);
      h.last().fail('websocket error');
    }
    expect(h.signOut).toHaveBeenCalledWith('reconnect-failed');
  });

  it('stopping while reconnecting cancels the pending attempt and does not log out', () => {
    const h = connected();
    h.last().drop();
    h.client.stop();
    vi.runAllTimers();
    expect(h.sockets).toHaveLength(1);
    expect(h.signOut).not.toHaveBeenCalled();
    expect(h.client.getSnapshot().state).toBe(HubState.Disconnected);
  });
});

describe("SPEC §4: a failed connect with 'Unauthorized' refreshes the token once, a second failure logs out", () => {
  it('the first Unauthorized failure refreshes the token and reconnects with the new access token', async () => {
    const h = fakeHub({ token: 'old', refresh: async () => 'new' });
    h.start();
    h.last().fail('Unauthorized');
    expect(h.refreshSession).toHaveBeenCalledTimes(1);
    expect(h.sockets[0]!.disconnected).toBe(true);
    await flush();
    expect(h.sockets.map((s) => s.token)).toEqual(['old', 'new']);
    h.last().connect();
    expect(h.client.getSnapshot()).toEqual({ state: HubState.Connected, connected: true });
    expect(h.signOut).not.toHaveBeenCalled();
  });

  it('a second Unauthorized failure stops the connection and logs the user out', async () => {
    const h = fakeHub();
    h.start();
    h.last().fail('Unauthorized');
    await flush();
    h.last().fail('Unauthorized');
    expect(h.refreshSession).toHaveBeenCalledTimes(1);
    expect(h.client.getSnapshot().state).toBe(HubState.Disconnected);
    expect(h.last().disconnected).toBe(true);
    expect(h.signOut).toHaveBeenCalledTimes(1);
    expect(h.signOut).toHaveBeenCalledWith('unauthorized');
    vi.runAllTimers();
    await flush();
    expect(h.sockets).toHaveLength(2);
  });

  it('the failure counter resets on success: a later Unauthorized refreshes again instead of logging out', async () => {
    const h = fakeHub();
    h.start();
    h.last().fail('Unauthorized');
    await flush();
    h.last().connect(); // success: the counter resets
    h.last().drop();
    vi.advanceTimersByTime(5);
    h.last().fail('Unauthorized'); // the token expired meanwhile
    await flush();
    expect(h.refreshSession).toHaveBeenCalledTimes(2);
    expect(h.signOut).not.toHaveBeenCalled();
    h.last().connect();
    expect(h.client.getSnapshot().state).toBe(HubState.Connected);
  });

  it('a failed token refresh stops the connection and logs the user out', async () => {
    const h = fakeHub({
      refresh: async () => {
        throw new Error('refresh token revoked');
      },
    });
    h.start();
    h.last().fail('Unauthorized');
    await flush();
    expect(h.client.getSnapshot().state).toBe(HubState.Disconnected);
    expect(h.sockets).toHaveLength(1);
    expect(h.signOut).toHaveBeenCalledTimes(1);
    expect(h.signOut).toHaveBeenCalledWith('refresh-failed');
  });

  it('an Unauthorized failure while reconnecting refreshes too, without using up a wait', async () => {
    const h = connected();
    h.last().drop();
    vi.advanceTimersByTime(5);
    h.last().fail('Unauthorized');
    await flush();
    expect(h.sockets).toHaveLength(3); // reconnected at once with the new token
    expect(h.last().token).toBe('token-1-refreshed');
    h.last().fail('websocket error');
    vi.advanceTimersByTime(19);
    expect(h.sockets).toHaveLength(3);
    vi.advanceTimersByTime(1);
    expect(h.sockets).toHaveLength(4); // the second wait (20 ms), as before the refresh
  });

  it('other connect errors are not treated as Unauthorized (no refresh)', () => {
    const h = fakeHub();
    h.start();
    h.last().fail('Service unavailable');
    expect(h.refreshSession).not.toHaveBeenCalled();
    expect(h.client.getSnapshot().state).toBe(HubState.Reconnecting);
  });
});

describe('requests reply through the HubAck envelope', () => {
  it('resolve with the data of an ok reply, reject with the failure of an error reply', async () => {
    const h = connected();
    h.replies.set('GetAccountBalance', () => ({ ok: true, data: { balanceMinor: 500, currency: 'USD' } }));
    h.replies.set('GetCampaignDetail', () => ({
      ok: false,
      error: { code: 'INTERNAL', message: 'Something went wrong' },
    }));
    await expect(h.client.request('GetAccountBalance')).resolves.toEqual({
      balanceMinor: 500,
      currency: 'USD',
    });
    await expect(h.client.request('GetCampaignDetail', 'c1')).rejects.toMatchObject({
      name: 'HubRequestError',
      message: 'Something went wrong',
      failure: { code: 'INTERNAL' },
    });
    expect(h.last().emitted.find((e) => e.event === 'GetCampaignDetail')?.args[0]).toBe('c1');
  });

  it('reject at once when the hub is not connected', async () => {
    const h = fakeHub();
    await expect(h.client.request('GetAccountBalance')).rejects.toThrow('The hub is not connected');
  });
});
