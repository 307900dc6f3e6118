import type { ReactNode } from 'react';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { STORAGE_KEYS } from '@/lib/session';
import { accessTokenFor } from '@/test/render-page';

// Textarea autosize listens to document.fonts, which jsdom does not have.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', {
    configurable: true,
    value: { addEventListener: () => undefined, removeEventListener: () => undefined },
  });
}

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

export function signIn(): void {
  localStorage.setItem(STORAGE_KEYS.accessToken, accessTokenFor('owner'));
  localStorage.setItem(STORAGE_KEYS.refreshToken, 'r');
  localStorage.setItem(STORAGE_KEYS.user, JSON.stringify(TEST_USER));
}

/** Renders a page with Mantine (no transitions or portals), toasts, a fresh query cache and a router. */
export function renderPage(page: ReactNode, at = '/') {
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  return render(
    <MantineProvider env="test">
      <Notifications />
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={[at]}>{page}</MemoryRouter>
      </QueryClientProvider>
    </MantineProvider>,
  );
}
