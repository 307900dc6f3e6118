import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { CAMPAIGNS_API, SHORT_LINK_CODE_LENGTH, type CampaignEstimate } from '@wren/contracts';
import { http } from '@/lib/http/client';
import { bodyOf, fakeAdapter } from '@/test/fake-adapter';
import { renderScreen, signInForTest } from '@/test/render-page';
import BulkSmsPage from './pages/bulk-sms-page';

const original = http.defaults.adapter;
afterEach(() => {
  http.defaults.adapter = original;
  cleanup();
});

const estimate = (segments: number): CampaignEstimate => ({
  recipients: 1,
  invalid: 0,
  duplicates: 0,
  suppressed: 0,
  segments,
  encoding: 'GSM-7',
  characters: 10,
  perSegmentMinor: 5,
  costMinor: 5 * segments,
  currency: 'USD',
  balanceMinor: 1000,
  balanceAfterMinor: 1000 - 5 * segments,
  issues: [],
  preview: [],
  linkBase: null,
});

// Issue 41 item 2: the Track link clicks option shows once the text has a link; on, the estimate
// is asked with the text and trackLinks (the server counts the short links' length) and its
// segments are the ones shown.
describe('bulk SMS: track link clicks', () => {
  it('offers the option for a text with a link, and asks the estimate with it', async () => {
    signInForTest('owner');
    const server = (http.defaults.adapter = fakeAdapter((config) => {
      if (config.url === CAMPAIGNS_API.estimate) {
        const b = bodyOf(config) as { trackLinks?: boolean };
        return { status: 200, data: estimate(b.trackLinks ? 2 : 1) };
      }
      if (config.url?.includes('sender-ids')) return { status: 200, data: { items: [] } };
      if (config.url?.includes('groups')) return { status: 200, data: { items: [] } };
      return {
        status: 200,
        data: { approval: 'auto', platformSender: 'Wren', balanceMinor: 1000, currency: 'USD' },
      };
    }));
    const user = userEvent.setup();
    renderScreen(<BulkSmsPage />);
    await user.type(await screen.findByRole('textbox', { name: /Paste numbers/ }), '+14155550100');
    const message = screen.getByRole('textbox', { name: /^Message/ });
    await user.type(message, 'Hello there');
    expect(screen.queryByRole('checkbox', { name: 'Track link clicks' })).toBeNull();
    await user.type(message, ' https://shop.example/sale');
    const track = await screen.findByRole('checkbox', { name: 'Track link clicks' });
    await user.click(track);
    await waitFor(() =>
      expect(
        server.calls.some(
          (c) =>
            c.url === CAMPAIGNS_API.estimate &&
            (bodyOf(c) as { trackLinks: boolean; text: string }).trackLinks === true &&
            (bodyOf(c) as { text: string }).text === 'Hello there https://shop.example/sale',
        ),
      ).toBe(true),
    );
    // Off, the bulk estimate carries no text (the page counts it) and no tracking.
    for (const c of server.calls.filter((c) => c.url === CAMPAIGNS_API.estimate)) {
      const b = bodyOf(c) as { trackLinks: boolean; text: string };
      if (!b.trackLinks) expect(b.text).toBe('x');
    }
  });

  it('counts the message box with the short link, not the URL, once tracking is on', async () => {
    // The counter said 37 characters for "Hello there https://shop.example/sale" while the text sent
    // (and priced) has the short link instead.
    signInForTest('owner');
    const base = 'https://go.wren.example';
    const server = (http.defaults.adapter = fakeAdapter((config) => {
      if (config.url === CAMPAIGNS_API.estimate) {
        const b = bodyOf(config) as { trackLinks?: boolean };
        return { status: 200, data: { ...estimate(1), linkBase: b.trackLinks ? base : null } };
      }
      if (config.url?.includes('sender-ids')) return { status: 200, data: { items: [] } };
      if (config.url?.includes('groups')) return { status: 200, data: { items: [] } };
      return {
        status: 200,
        data: { approval: 'auto', platformSender: 'Wren', balanceMinor: 1000, currency: 'USD' },
      };
    }));
    const user = userEvent.setup();
    renderScreen(<BulkSmsPage />);
    await user.type(await screen.findByRole('textbox', { name: /Paste numbers/ }), '+14155550100');
    const text = 'Hello there https://shop.example/sale/spring-2026-collection';
    await user.type(screen.getByRole('textbox', { name: /^Message/ }), text);
    const counter = () => screen.getByTestId('sms-counter').textContent ?? '';
    expect(counter()).toContain(`${text.length} characters`);
    // Off, the estimate is asked without the text (the page counts it).
    await waitFor(() =>
      expect(
        server.calls.some(
          (c) => c.url === CAMPAIGNS_API.estimate && (bodyOf(c) as { text: string }).text === 'x',
        ),
      ).toBe(true),
    );
    await user.click(await screen.findByRole('checkbox', { name: 'Track link clicks' }));
    const sent = `Hello there ${base}/l/${'x'.repeat(SHORT_LINK_CODE_LENGTH)}`;
    await waitFor(() => expect(counter()).toContain(`${sent.length} characters`));
    expect(sent.length).not.toBe(text.length);
  });
});
