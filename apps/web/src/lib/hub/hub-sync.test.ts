import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, type QueryKey } from '@tanstack/react-query';
import { campaignCalls } from './hub-campaign';
import { hubKeys } from './hub-keys';
import { attachHubSync, COALESCE_DELAY_MS } from './hub-sync';
import { fakeHub, flush } from './test/fake-hub';
import { clearSession, setTokens } from '@/lib/session';
import { accessTokenFor } from '@/test/render-page';

const BALANCE = { balanceMinor: 500, currency: 'USD' };
const DELIVERY = { timezone: 'UTC', since: {}, periods: {} };
const PERFORMANCE = [{ date: '2025-01-01', sent: 1, delivered: 1, failed: 0, deliveryRate: 1 }];

/** A connected hub whose fake server answers every load; `version` changes the balance it returns. */
function setup(may?: (method: string) => boolean) {
  const h = fakeHub();
  const queryClient = new QueryClient();
  const log = vi.fn();
  let balanceMinor = BALANCE.balanceMinor;
  h.replies.set('GetAccountBalance', () => ({ ok: true, data: { ...BALANCE, balanceMinor } }));
  h.replies.set('GetDeliveryStatus', () => ({ ok: true, data: DELIVERY }));
  h.replies.set('GetPerformanceData', () => ({ ok: true, data: PERFORMANCE }));
  h.replies.set('GetSenderIdList', () => ({ ok: true, data: [{ id: 's1' }] }));
  h.replies.set('GetSmsTemplates', () => ({ ok: true, data: [{ id: 't1' }] }));
  h.replies.set('GetGroupList', () => ({ ok: true, data: [{ id: 'g1' }] }));
  const detach = attachHubSync(h.client, queryClient, log, may ?? (() => true));
  return {
    ...h,
    queryClient,
    log,
    detach,
    setBalance: (minor: number) => (balanceMinor = minor),
    calls: (method: string) => h.sockets.reduce((n, s) => n + s.requests(method), 0),
    /** Seeds an HTTP query so its invalidation can be seen. */
    seed: (queryKey: QueryKey) => queryClient.setQueryData(queryKey, 'http data'),
    invalidated: (queryKey: QueryKey) => queryClient.getQueryState(queryKey)?.isInvalidated ?? false,
  };
}

async function connect(h: ReturnType<typeof setup>) {
  h.start();
  h.last().connect();
  await flush();
}

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('issue 39: the hub loads only what the member’s role may see', () => {
  it('asks a billing member’s hub for the balance only: nothing refused, nothing logged', async () => {
    setTokens({ accessToken: accessTokenFor('billing'), refreshToken: 'r' });
    const h = setup(undefined);
    // The default check: the role of the access token stored now.
    h.detach();
    const detach = attachHubSync(h.client, h.queryClient, h.log);
    await connect(h);
    expect(h.calls('GetAccountBalance')).toBe(1);
    for (const m of [
      'GetDeliveryStatus',
      'GetPerformanceData',
      'GetSenderIdList',
      'GetSmsTemplates',
      'GetGroupList',
    ])
      expect(h.calls(m), m).toBe(0);
    expect(h.log).not.toHaveBeenCalled();
    detach();
    clearSession();
  });
});

describe('SPEC §4: on a successful connect the client loads the six live data sets into the query cache', () => {
  it('loads balance, delivery status, performance data, sender IDs, templates and groups', async () => {
    const h = setup();
    await connect(h);
    const q = h.queryClient;
    expect(q.getQueryData(hubKeys.balance)).toEqual(BALANCE);
    expect(q.getQueryData(hubKeys.deliveryStatus)).toEqual(DELIVERY);
    expect(q.getQueryData(hubKeys.performance)).toEqual(PERFORMANCE);
    expect(q.getQueryData(hubKeys.senderIds)).toEqual([{ id: 's1' }]);
    expect(q.getQueryData(hubKeys.templates)).toEqual([{ id: 't1' }]);
    expect(q.getQueryData(hubKeys.groups)).toEqual([{ id: 'g1' }]);
  });

  it('loads them again after a reconnect', async () => {
    const h = setup();
    await connect(h);
    h.setBalance(120);
    h.last().drop();
    vi.advanceTimersByTime(5);
    h.last().connect();
    await flush();
    expect(h.calls('GetGroupList')).toBe(2);
    expect(h.queryClient.getQueryData(hubKeys.balance)).toEqual({ ...BALANCE, balanceMinor: 120 });
  });

  it('SPEC §8: hub load failures are only logged to the console; the other sets still load', async () => {
    const h = setup();
    h.replies.set('GetDeliveryStatus', () => ({
      ok: false,
      error: { code: 'INTERNAL', message: 'boom' },
    }));
    await connect(h);
    expect(h.log).toHaveBeenCalledTimes(1);
    expect(String(h.log.mock.calls[0]![0])).toContain('GetDeliveryStatus');
    expect(h.queryClient.getQueryData(hubKeys.deliveryStatus)).toBeUndefined();
    expect(h.queryClient.getQueryData(hubKeys.performance)).toEqual(PERFORMANCE);
  });
});

describe('SPEC §7: group, sender ID and template lists reload at once on their push', () => {
  it.each([
    ['GroupListUpdated', 'GetGroupList', hubKeys.groups, ['groups', 'list']],
    ['SenderIdUpdated', 'GetSenderIdList', hubKeys.senderIds, ['sender-ids', 'list']],
    ['SmsTemplatesUpdated', 'GetSmsTemplates', hubKeys.templates, ['templates', 'list']],
  ] as const)(
    '%s reloads %s into the cache and invalidates the HTTP list',
    async (push, method, key, httpKey) => {
      const h = setup();
      await connect(h);
      h.seed(httpKey);
      h.replies.set(method, () => ({ ok: true, data: [{ id: 'fresh' }] }));
      h.last().push(push);
      expect(h.calls(method)).toBe(2); // at once, no delay
      await flush();
      expect(h.queryClient.getQueryData(key)).toEqual([{ id: 'fresh' }]);
      expect(h.invalidated(httpKey)).toBe(true);
    },
  );
});

describe('SPEC §7: after UserAccountUpdated the balance reloads after 3 s, ignoring further pushes in that window', () => {
  it('reloads once, 3 s after the first push', async () => {
    const h = setup();
    await connect(h);
    h.seed(['balance']);
    h.setBalance(321);
    h.last().push('UserAccountUpdated');
    vi.advanceTimersByTime(1000);
    h.last().push('UserAccountUpdated');
    vi.advanceTimersByTime(1999);
    h.last().push('UserAccountUpdated');
    expect(h.calls('GetAccountBalance')).toBe(1); // the connect load only
    expect(h.invalidated(['balance'])).toBe(false);
    vi.advanceTimersByTime(1);
    expect(h.calls('GetAccountBalance')).toBe(2);
    await flush();
    expect(h.queryClient.getQueryData(hubKeys.balance)).toEqual({ ...BALANCE, balanceMinor: 321 });
    expect(h.invalidated(['balance'])).toBe(true);
    vi.advanceTimersByTime(10 * COALESCE_DELAY_MS);
    expect(h.calls('GetAccountBalance')).toBe(2); // the ignored pushes left nothing behind
  });

  it('a push after the reload starts a new 3 s window', async () => {
    const h = setup();
    await connect(h);
    h.last().push('UserAccountUpdated');
    vi.advanceTimersByTime(3000);
    h.last().push('UserAccountUpdated');
    vi.advanceTimersByTime(2999);
    expect(h.calls('GetAccountBalance')).toBe(2);
    vi.advanceTimersByTime(1);
    expect(h.calls('GetAccountBalance')).toBe(3);
  });

  it('a pending reload is dropped when the connection stops', async () => {
    const h = setup();
    await connect(h);
    h.last().push('UserAccountUpdated');
    h.client.stop();
    vi.advanceTimersByTime(5000);
    expect(h.calls('GetAccountBalance')).toBe(1);
    expect(h.log).not.toHaveBeenCalled();
  });
});

describe('SPEC §7: after UserSmsDeliveryUpdated, delivery status and performance data reload after 3 s with the same coalescing', () => {
  it('reloads both once, 3 s after the first push; the SMS log, message and dashboard queries are invalidated at once', async () => {
    const h = setup();
    await connect(h);
    for (const key of [['sms-log', {}], ['sms-message', 'm1'], ['dashboard', 'recent'], ['balance']])
      h.seed(key);
    h.last().push('UserSmsDeliveryUpdated');
    expect(h.invalidated(['sms-log', {}])).toBe(true);
    expect(h.invalidated(['sms-message', 'm1'])).toBe(true);
    expect(h.invalidated(['dashboard', 'recent'])).toBe(true);
    expect(h.invalidated(['balance'])).toBe(false);
    vi.advanceTimersByTime(1500);
    h.last().push('UserSmsDeliveryUpdated');
    h.last().push('UserSmsDeliveryUpdated');
    vi.advanceTimersByTime(1499);
    expect(h.calls('GetDeliveryStatus')).toBe(1);
    expect(h.calls('GetPerformanceData')).toBe(1);
    vi.advanceTimersByTime(1);
    expect(h.calls('GetDeliveryStatus')).toBe(2);
    expect(h.calls('GetPerformanceData')).toBe(2);
    expect(h.calls('GetAccountBalance')).toBe(1); // a separate window
    vi.advanceTimersByTime(10 * COALESCE_DELAY_MS);
    expect(h.calls('GetDeliveryStatus')).toBe(2);
  });
});

describe('SPEC §7: BulkSmsUpdated(id)', () => {
  it('invalidates that campaign and sets the bulk-SMS-changed number', async () => {
    const h = setup();
    await connect(h);
    h.seed(['campaign', 'c1', 'detail']);
    h.seed(['campaign', 'c2', 'detail']);
    h.last().push('BulkSmsUpdated', 'c1');
    expect(h.invalidated(['campaign', 'c1', 'detail'])).toBe(true);
    expect(h.invalidated(['campaign', 'c2', 'detail'])).toBe(false);
    expect(h.queryClient.getQueryData(hubKeys.bulkSmsChanged)).toEqual({ campaignId: 'c1', seq: 1 });
    h.last().push('BulkSmsUpdated', 'c1');
    expect(h.queryClient.getQueryData(hubKeys.bulkSmsChanged)).toEqual({ campaignId: 'c1', seq: 2 });
  });
});

describe('SPEC §7: when the hub is not connected, the campaign calls return an empty list or an empty object', () => {
  it('never connected, reconnecting or stopped → [] and {} without a request', async () => {
    const h = setup();
    const calls = campaignCalls(h.client);
    await expect(calls.getCampaignDeliveryStatus('c1')).resolves.toEqual([]);
    await expect(calls.getCampaignDetail('c1')).resolves.toEqual({});

    await connect(h);
    h.last().drop(); // Reconnecting: not connected
    await expect(calls.getCampaignDeliveryStatus('c1')).resolves.toEqual([]);
    await expect(calls.getCampaignDetail('c1')).resolves.toEqual({});
    h.client.stop();
    await expect(calls.getCampaignDetail('c1')).resolves.toEqual({});
    expect(h.calls('GetCampaignDeliveryStatus') + h.calls('GetCampaignDetail')).toBe(0);
  });

  it('connected → the hub answers', async () => {
    const h = setup();
    h.replies.set('GetCampaignDeliveryStatus', (id) => ({
      ok: true,
      data: [{ status: 'delivered', count: id === 'c1' ? 3 : 0 }],
    }));
    await connect(h);
    const calls = campaignCalls(h.client);
    await expect(calls.getCampaignDeliveryStatus('c1')).resolves.toEqual([{ status: 'delivered', count: 3 }]);
  });
});
