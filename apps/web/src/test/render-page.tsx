import type { ReactNode } from 'react';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
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
  hasPicture: false,
  createdAt: '2024-01-01T00:00:00.000Z',
};

/** A signed-in session in storage, as the HTTP client reads it (for screens behind sign-in). */
export function signInForTest(): void {
  localStorage.setItem(STORAGE_KEYS.accessToken, 'a');
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
