import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { CAMPAIGNS_API, SEND_WINDOWS_API, type CampaignEstimate, type SendWindow } from '@wren/contracts';
import { http } from '@/lib/http/client';
import { bodyOf, fakeAdapter } from '@/test/fake-adapter';
import { renderScreen, signInForTest } from '@/test/render-page';
import SendWindowPage from './pages/send-window-page';

const original = http.defaults.adapter;
afterEach(() => {
  http.defaults.adapter = original;
  cleanup();
});

const DEFAULT: SendWindow = { days: [1, 2, 3, 4, 5], start: '09:00', end: '20:00', overnight: false };

const estimate = (sendWindow: SendWindow | null | undefined): CampaignEstimate => ({
  recipients: 3,
  invalid: 0,
  duplicates: 0,
  suppressed: 0,
  segments: 1,
  encoding: 'GSM-7',
  characters: 5,
  perSegmentMinor: 3,
  costMinor: 3,
  currency: 'USD',
  balanceMinor: 1000,
  balanceAfterMinor: 997,
  issues: [],
  preview: [],
  sendWindows:
    sendWindow === null
      ? null
      : {
          window: sendWindow ?? DEFAULT,
          source: sendWindow ? 'campaign' : 'account',
          fallbackZone: 'America/New_York',
          zones: [
            {
              timeZone: 'America/New_York',
              recipients: 2,
              fallback: false,
              opensAt: '2026-12-02T19:00:00.000Z',
              opensAtLocal: '2026-12-02 14:00',
              openNow: true,
            },
            {
              timeZone: 'Asia/Kolkata',
              recipients: 1,
              fallback: false,
              opensAt: '2026-12-03T03:30:00.000Z',
              opensAtLocal: '2026-12-03 09:00',
              openNow: false,
            },
          ],
          lastSendAt: '2026-12-03T03:30:00.000Z',
        },
});

function serve() {
  return (http.defaults.adapter = fakeAdapter((config) => {
    if (config.url === CAMPAIGNS_API.estimate) {
      const b = bodyOf(config) as { sendWindow?: SendWindow | null };
      return { status: 200, data: estimate(b.sendWindow) };
    }
    if (config.url === SEND_WINDOWS_API.settings) {
      if (config.method === 'put')
        return { status: 200, data: { ...(bodyOf(config) as object), updatedAt: null } };
      return { status: 200, data: { window: DEFAULT, applyToSingle: false, updatedAt: null } };
    }
    if (config.url?.includes('sender-ids')) return { status: 200, data: { items: [] } };
    if (config.url?.includes('groups')) return { status: 200, data: { items: [] } };
    return {
      status: 200,
      data: { approval: 'auto', platformSender: 'Wren', balanceMinor: 1000, currency: 'USD' },
    };
  }));
}

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
