import type { ReactNode } from 'react';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import type { AccountRole } from '@wren/contracts';
import { STORAGE_KEYS } from '@/lib/session';

// Textarea autosize listens to document.fonts, which jsdom does not have.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', {
    configurable: true,
    value: { addEventListener: () => undefined, removeEventListener: () => undefined },
  });
}

/** The signed-in user of screen tests (what GET /api/users/me and sign-in answer). */
export const TEST_USER = {
  id: 'u1',
  accountId: 'a1',
  username: 'ada',
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  phone: '+14155550100',
  role: 'user',
  timezone: 'America/New_York',
  locale: 'en-US',
  hasPicture: false,
  createdAt: '2024-01-01T00:00:00.000Z',
};

/** An access token whose claims name `role` in the account (claim arl, as the server's do). */
export function accessTokenFor(role: AccountRole = 'owner'): string {
  const claims = btoa(JSON.stringify({ sub: TEST_USER.id, aid: TEST_USER.accountId, arl: role }));
  return `e30.${claims.replace(/=+$/, '')}.sig`;
}

/**
 * A signed-in session in storage, as the HTTP client reads it (for screens behind sign-in), as a
 * member with `role` in the account (an owner unless told: every action shows).
 */
export function signInForTest(role: AccountRole = 'owner'): void {
  localStorage.setItem(STORAGE_KEYS.accessToken, accessTokenFor(role));
  localStorage.setItem(STORAGE_KEYS.refreshToken, 'r');
  localStorage.setItem(STORAGE_KEYS.user, JSON.stringify(TEST_USER));
}

/** Renders a screen with Mantine (test env: no transitions or portals), toasts, a fresh query cache and a router. */
export function renderScreen(screen: ReactNode, at = '/') {
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  return render(
    <MantineProvider env="test">
      <Notifications />
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={[at]}>{screen}</MemoryRouter>
      </QueryClientProvider>
    </MantineProvider>,
  );
}
