import { describe, expect, it, vi } from 'vitest';
import { API } from '@wren/contracts';
import { fakeAdapter, type FakeHandler } from '@/test/fake-adapter';
import { createBusyCounter } from '../busy';
import { STORAGE_KEYS } from '../session';
import { createHttpClient } from './client';

/** Resources accept only `Bearer new-access`; the refresh answers new tokens after 20 ms. */
const server: FakeHandler = (config) => {
  if (config.url === API.refresh)
    return { status: 200, data: { accessToken: 'new-access', refreshToken: 'new-refresh' }, delay: 20 };
  return config.headers.get('Authorization') === 'Bearer new-access' ? { status: 200 } : { status: 401 };
};

describe('one token refresh in flight, shared', () => {
  it('by every client and by refreshSession (the hub): a refresh token is used once', async () => {
    localStorage.setItem(STORAGE_KEYS.accessToken, 'old-access');
    localStorage.setItem(STORAGE_KEYS.refreshToken, 'old-refresh');
    const a = fakeAdapter(server);
    const b = fakeAdapter(server);
    const options = { reload: vi.fn(), log: vi.fn(), busy: createBusyCounter() };
    const first = createHttpClient({ ...options, adapter: a });
    const second = createHttpClient({ ...options, adapter: b });

    await Promise.all([first.get('/api/a'), second.get('/api/b'), first.refreshSession()]);

    const refreshes = [...a.calls, ...b.calls].filter((c) => c.url === API.refresh);
    expect(refreshes).toHaveLength(1);
    expect(localStorage.getItem(STORAGE_KEYS.accessToken)).toBe('new-access');
    expect(options.reload).not.toHaveBeenCalled();
  });

  it('refreshSession rejects (after clearing the session and reloading) when the refresh fails', async () => {
    localStorage.setItem(STORAGE_KEYS.accessToken, 'old-access');
    localStorage.setItem(STORAGE_KEYS.refreshToken, 'revoked');
    const reload = vi.fn();
    const client = createHttpClient({
      adapter: fakeAdapter(() => ({ status: 401 })),
      reload,
      log: vi.fn(),
      busy: createBusyCounter(),
    });
    await expect(client.refreshSession()).rejects.toBeDefined();
    expect(reload).toHaveBeenCalledTimes(1);
    expect(localStorage.getItem(STORAGE_KEYS.accessToken)).toBeNull();
  });
});
