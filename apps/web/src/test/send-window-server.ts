import { CAMPAIGNS_API, SEND_WINDOWS_API, type CampaignEstimate, type SendWindow } from '@wren/contracts';
import { http } from '@/lib/http/client';
import { bodyOf, fakeAdapter } from './fake-adapter';

/**
 * A fake server for the send-window screens (the composer's window and Settings → Send window):
 * the account's default window, and an estimate whose plan has two zones, New York open now and
 * Kolkata opening later.
 */
export const DEFAULT: SendWindow = { days: [1, 2, 3, 4, 5], start: '09:00', end: '20:00', overnight: false };

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

export function serve() {
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
