import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { API } from '@wren/contracts';
import { bodyOf, fakeAdapter, type FakeHandler } from '@/test/fake-adapter';
import { createBusyCounter } from '../busy';
import { STORAGE_KEYS } from '../session';
import { createHttpClient } from './client';
import { HttpError } from './http-error';

const USER = { id: 'u1', name: 'Ada' };

function storeSession(accessToken = 'old-access', refreshToken = 'old-refresh') {
  localStorage.setItem(STORAGE_KEYS.accessToken, accessToken);
  localStorage.setItem(STORAGE_KEYS.refreshToken, refreshToken);
  localStorage.setItem(STORAGE_KEYS.user, JSON.stringify(USER));
}

function setup(handler: FakeHandler) {
  const adapter = fakeAdapter(handler);
  const reload = vi.fn();
  const log = vi.fn();
  const busy = createBusyCounter();
  const client = createHttpClient({ adapter, reload, log, busy });
  return { client, adapter, reload, log, busy };
}

const bearerOf = (config: { headers: { get(name: string): unknown } }) => config.headers.get('Authorization');

/** A server whose resources accept only `Bearer new-access`; the refresh endpoint is given. */
function serverWithRefresh(refresh: () => { status: number; data?: unknown }): FakeHandler {
  return (config) => {
    if (config.url === API.refresh) return { ...refresh(), delay: 20 };
    if (bearerOf(config) !== 'Bearer new-access') {
      return {
        status: 401,
        data: { code: 'UNAUTHORIZED', message: 'Expired' },
        headers: { 'Application-Error': 'Session expired' },
      };
    }
    return { status: 200, data: { url: config.url } };
  };
}

beforeEach(() => {
  document.cookie = 'XSRF-TOKEN=; Max-Age=0; Path=/';
});

afterEach(() => {
  vi.useRealTimers();
});

describe('bearer token', () => {
  it('is sent on every request when an access token is stored', async () => {
    storeSession('tok-1');
    const { client, adapter } = setup(() => ({ status: 200 }));
    await client.get('/api/me');
    await client.post('/api/x', { a: 1 });
    expect(adapter.calls.map(bearerOf)).toEqual(['Bearer tok-1', 'Bearer tok-1']);
  });

  it('is absent without a stored token', async () => {
    const { client, adapter } = setup(() => ({ status: 200 }));
    await client.get('/api/me');
    expect(bearerOf(adapter.calls[0]!)).toBeUndefined();
  });
});

describe('XSRF header', () => {
  it('copies the XSRF-TOKEN cookie to X-XSRF-TOKEN on non-GET/HEAD relative requests only', async () => {
    document.cookie = 'XSRF-TOKEN=abc%3D123; Path=/';
    const { client, adapter } = setup(() => ({ status: 200 }));
    await client.post('/api/a');
    await client.patch('/api/b');
    await client.delete('/api/c');
    await client.get('/api/d');
    await client.head('/api/e');
    await client.post('https://other.example/api/f');
    await client.post('//other.example/api/g');
    const sent = adapter.calls.map((c) => [c.method, c.url, c.headers.get('X-XSRF-TOKEN')]);
    expect(sent).toEqual([
      ['post', '/api/a', 'abc=123'],
      ['patch', '/api/b', 'abc=123'],
      ['delete', '/api/c', 'abc=123'],
      ['get', '/api/d', undefined],
      ['head', '/api/e', undefined],
      ['post', 'https://other.example/api/f', undefined],
      ['post', '//other.example/api/g', undefined],
    ]);
  });

  it('is left out when there is no cookie', async () => {
    const { client, adapter } = setup(() => ({ status: 200 }));
    await client.post('/api/a');
    expect(adapter.calls[0]!.headers.get('X-XSRF-TOKEN')).toBeUndefined();
  });
});

describe('token refresh', () => {
  it('runs one refresh for concurrent 401s, then retries each request with the new token', async () => {
    storeSession();
    const { client, adapter, reload } = setup(
      serverWithRefresh(() => ({
        status: 200,
        data: { accessToken: 'new-access', refreshToken: 'new-refresh' },
      })),
    );
    const [a, b] = await Promise.all([client.get('/api/a'), client.post('/api/b', { x: 1 })]);

    expect(a.data).toEqual({ url: '/api/a' });
    expect(b.data).toEqual({ url: '/api/b' });
    const refreshes = adapter.calls.filter((c) => c.url === API.refresh);
    expect(refreshes).toHaveLength(1);
    expect(refreshes[0]!.method).toBe('post');
    expect(bodyOf(refreshes[0]!)).toEqual({ accessToken: 'old-access', refreshToken: 'old-refresh' });
    const retried = adapter.calls.filter((c) => c.url !== API.refresh && bearerOf(c) === 'Bearer new-access');
    expect(retried.map((c) => c.url).sort()).toEqual(['/api/a', '/api/b']);
    expect(bodyOf(retried.find((c) => c.url === '/api/b')!)).toEqual({ x: 1 });
    expect(localStorage.getItem(STORAGE_KEYS.accessToken)).toBe('new-access');
    expect(localStorage.getItem(STORAGE_KEYS.refreshToken)).toBe('new-refresh');
    expect(reload).not.toHaveBeenCalled();
  });

  it('holds a request started during the refresh until the new token is in', async () => {
    storeSession();
    const { client, adapter } = setup(
      serverWithRefresh(() => ({
        status: 200,
        data: { accessToken: 'new-access', refreshToken: 'new-refresh' },
      })),
    );
    const first = client.get('/api/a');
    await vi.waitFor(() => expect(adapter.calls.some((c) => c.url === API.refresh)).toBe(true));
    await client.get('/api/late');
    await first;
    const late = adapter.calls.filter((c) => c.url === '/api/late');
    expect(late.map(bearerOf)).toEqual(['Bearer new-access']);
    expect(adapter.calls.filter((c) => c.url === API.refresh)).toHaveLength(1);
  });

  it('on refresh failure clears all stored data, reloads, and passes the original error on', async () => {
    storeSession();
    const { client, adapter, reload } = setup(
      serverWithRefresh(() => ({ status: 401, data: { code: 'TOKEN_INVALID', message: 'Bad refresh' } })),
    );
    const results = await Promise.allSettled([client.get('/api/a'), client.get('/api/b')]);

    for (const result of results) {
      expect(result.status).toBe('rejected');
      const error = (result as PromiseRejectedResult).reason as HttpError;
      expect(error).toBeInstanceOf(HttpError);
      expect(error.status).toBe(401);
      expect(error.message).toBe('Session expired');
    }
    expect(adapter.calls.filter((c) => c.url === API.refresh)).toHaveLength(1);
    expect(reload).toHaveBeenCalledTimes(1);
    expect(Object.values(STORAGE_KEYS).map((k) => localStorage.getItem(k))).toEqual([null, null, null]);
  });

  it('does not refresh without a stored session (e.g. wrong credentials at login)', async () => {
    const { client, adapter, reload } = setup(() => ({
      status: 401,
      headers: { 'Application-Error': 'Invalid username or password' },
      data: { code: 'INVALID_CREDENTIALS', message: 'Invalid username or password' },
    }));
    const error = await client.post(API.login, {}).catch((e: unknown) => e);
    expect(error).toMatchObject({
      status: 401,
      code: 'INVALID_CREDENTIALS',
      message: 'Invalid username or password',
    });
    expect(adapter.calls).toHaveLength(1);
    expect(reload).not.toHaveBeenCalled();
  });

  it('does not refresh a 401 from the refresh call itself, nor a second 401 after the retry', async () => {
    storeSession();
    const { client, adapter } = setup((config) =>
      config.url === API.refresh
        ? { status: 200, data: { accessToken: 'still-bad', refreshToken: 'r2' } }
        : { status: 401, data: 'no' },
    );
    await expect(client.get('/api/a')).rejects.toMatchObject({ status: 401 });
    expect(adapter.calls.map((c) => c.url)).toEqual(['/api/a', API.refresh, '/api/a']);
  });
});

describe('error catalogue', () => {
  async function messageFor(reply: Parameters<typeof fakeAdapter>[0]) {
    const { client, log } = setup(reply);
    const error = (await client.get('/api/x').catch((e: unknown) => e)) as HttpError;
    expect(error).toBeInstanceOf(HttpError);
    expect(log).toHaveBeenCalledTimes(1);
    return error.message;
  }

  it('403 → the permission message, even with an Application-Error header', async () => {
    expect(
      await messageFor(() => ({ status: 403, headers: { 'Application-Error': 'XSRF token mismatch' } })),
    ).toBe('You do not have permission to send this request');
  });

  it('an Application-Error header → its value', async () => {
    expect(
      await messageFor(() => ({
        status: 423,
        headers: { 'Application-Error': 'Account locked' },
        data: { code: 'X' },
      })),
    ).toBe('Account locked');
  });

  it('a percent-encoded Application-Error header → its decoded value (non-ASCII kept)', async () => {
    expect(
      await messageFor(() => ({
        status: 409,
        headers: { 'Application-Error': 'A group named "VIP customers %F0%9F%8C%9F" exists (100%25)' },
      })),
    ).toBe('A group named "VIP customers 🌟" exists (100%)');
    // A value that is not percent-encoding is shown as it came.
    expect(
      await messageFor(() => ({ status: 409, headers: { 'Application-Error': 'Off by 5% today' } })),
    ).toBe('Off by 5% today');
  });

  it('no response (status 0) → the connection message', async () => {
    expect(await messageFor(() => ({ status: 0 }))).toBe(
      'Unable to contact remote server, check your internet connection',
    );
  });

  it('an errors object → every non-empty entry, flattened, each followed by a line break', async () => {
    const data = {
      errors: { name: ['Name is required'], email: 'Bad email', phone: [], empty: '', pw: ['a', 'b'] },
    };
    expect(await messageFor(() => ({ status: 400, data }))).toBe('Name is required\nBad email\na\nb\n');
  });

  it('an empty errors object → the raw body, as text or JSON', async () => {
    expect(await messageFor(() => ({ status: 400, data: { errors: {} } }))).toBe('{"errors":{}}');
    expect(await messageFor(() => ({ status: 500, data: 'Internal failure' }))).toBe('Internal failure');
    expect(await messageFor(() => ({ status: 409, data: { code: 'CONFLICT', message: 'Taken' } }))).toBe(
      '{"code":"CONFLICT","message":"Taken"}',
    );
  });

  it('keeps the field errors, the status and the code for forms', async () => {
    const { client } = setup(() => ({
      status: 400,
      data: { errors: { email: ['Bad email'] }, code: 'VALIDATION' },
    }));
    const error = (await client.post('/api/x').catch((e: unknown) => e)) as HttpError;
    expect(error).toMatchObject({ status: 400, code: 'VALIDATION', fieldErrors: { email: ['Bad email'] } });
  });
});

describe('busy counter', () => {
  it('counts requests in flight, except POSTs ending in dt or /log and any fileUpload', async () => {
    const seen: number[] = [];
    const { client, busy } = setup(() => {
      seen.push(busy.count());
      return { status: 200 };
    });
    await client.get('/api/reports/log');
    await client.post('/api/reports/dt');
    await client.post('/api/sms/log');
    await client.post('/api/me/picture/fileUpload');
    await client.get('/api/files/fileUpload/1');
    await client.post('/api/sms/single');
    expect(seen).toEqual([1, 0, 0, 0, 0, 1]);
    expect(busy.count()).toBe(0);
  });

  it('leaves a request flagged noOverlay uncounted, whatever its method and URL', async () => {
    const seen: [string, number][] = [];
    const { client, busy } = setup((config) => {
      seen.push([`${config.method} ${config.url}`, busy.count()]);
      return { status: 200 };
    });
    await client.get('/api/sms/log', { noOverlay: true });
    await client.post('/api/sms/single', {}, { noOverlay: true });
    await client.get('/api/sms/log', { noOverlay: false });
    await client.get('/api/sms/log');
    expect(seen).toEqual([
      ['get /api/sms/log', 0],
      ['post /api/sms/single', 0],
      ['get /api/sms/log', 1],
      ['get /api/sms/log', 1],
    ]);
    expect(busy.count()).toBe(0);
  });

  it('keeps a noOverlay request off the overlay through its failure, and through a refresh-and-retry', async () => {
    storeSession();
    const seen: number[] = [];
    const { client, busy, adapter } = setup((config) => {
      seen.push(busy.count());
      return serverWithRefresh(() => ({
        status: 200,
        data: { accessToken: 'new-access', refreshToken: 'new-refresh' },
      }))(config);
    });
    const { data } = await client.get('/api/dashboard/summary', { noOverlay: true });
    expect(data).toEqual({ url: '/api/dashboard/summary' });
    // The first try, the token refresh it started, and the retry: none raised the counter.
    expect(adapter.calls.map((c) => c.url)).toEqual([
      '/api/dashboard/summary',
      API.refresh,
      '/api/dashboard/summary',
    ]);
    expect(seen).toEqual([0, 0, 0]);
    expect(busy.isVisible()).toBe(false);
    const failing = setup(() => ({ status: 500 }));
    await failing.client.get('/api/x', { noOverlay: true }).catch(() => undefined);
    expect(failing.busy.count()).toBe(0);
    expect(failing.busy.isVisible()).toBe(false);
  });

  it('falls back to zero after failures and after a refresh-and-retry', async () => {
    storeSession();
    const { client, busy } = setup(
      serverWithRefresh(() => ({
        status: 200,
        data: { accessToken: 'new-access', refreshToken: 'new-refresh' },
      })),
    );
    await Promise.all([client.get('/api/a'), client.get('/api/b')]);
    expect(busy.count()).toBe(0);
    const failing = setup(() => ({ status: 500 }));
    await failing.client.get('/api/x').catch(() => undefined);
    expect(failing.busy.count()).toBe(0);
  });
});
