import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ReactNode } from 'react';
import { act, renderHook } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { API } from '@wren/contracts';
import { useSignOut } from '@/app/use-sign-out';
import { http } from '@/lib/http/client';
import { STORAGE_KEYS } from '@/lib/session';
import { fakeAdapter } from '@/test/fake-adapter';
import { hub } from './index';

const originalAdapter = http.defaults.adapter;

afterEach(() => {
  http.defaults.adapter = originalAdapter;
  vi.restoreAllMocks();
});

describe('SPEC §4 Logout: stops the real-time connection, then calls the sign-out service', () => {
  it("the menu's sign-out stops the hub before POST /api/auth/logout", async () => {
    localStorage.setItem(STORAGE_KEYS.accessToken, 'a');
    localStorage.setItem(STORAGE_KEYS.refreshToken, 'r');
    const order: string[] = [];
    vi.spyOn(hub, 'stop').mockImplementation(() => order.push('hub.stop'));
    http.defaults.adapter = fakeAdapter((config) => {
      order.push(`${config.method?.toUpperCase()} ${config.url}`);
      return { status: 204 };
    });
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter>{children}</MemoryRouter>
      </QueryClientProvider>
    );
    const { result } = renderHook(() => useSignOut(), { wrapper });
    await act(() => result.current());
    expect(order).toEqual(['hub.stop', `POST ${API.logout}`]);
    expect(localStorage.getItem(STORAGE_KEYS.accessToken)).toBeNull();
  });
});
