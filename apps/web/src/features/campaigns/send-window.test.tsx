import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from '@/lib/http/client';
import { bodyOf } from '@/test/fake-adapter';
import { DEFAULT, serve } from '@/test/send-window-server';
import { renderScreen, signInForTest } from '@/test/render-page';
import SendWindowPage from './pages/send-window-page';

const original = http.defaults.adapter;
afterEach(() => {
  http.defaults.adapter = original;
  cleanup();
});

// Issue 41 item 1: Settings → Send window, the account's default.
describe('settings: send window', () => {
  it('an owner saves the default window', async () => {
    signInForTest('owner');
    const server = serve();
    const user = userEvent.setup();
    renderScreen(<SendWindowPage />);
    expect(await screen.findByRole('radio', { name: 'Only in a window' })).toBeChecked();
    await user.click(screen.getByRole('checkbox', { name: 'Sun' }));
    await user.click(screen.getByRole('switch', { name: /Single sends wait/ }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(server.calls.some((c) => c.method === 'put')).toBe(true));
    expect(bodyOf(server.calls.find((c) => c.method === 'put')!)).toEqual({
      window: { ...DEFAULT, days: [1, 2, 3, 4, 5, 7] },
      applyToSingle: true,
    });
  });

  it('a sender sees the default but cannot change it', async () => {
    signInForTest('sender');
    const server = serve();
    renderScreen(<SendWindowPage />);
    expect(await screen.findByRole('radio', { name: 'Only in a window' })).toBeDisabled();
    expect(screen.getByText('An owner or admin can change the send window.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    expect(server.calls.some((c) => c.method === 'put')).toBe(false);
  });
});
