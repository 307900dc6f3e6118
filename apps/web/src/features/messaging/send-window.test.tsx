import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { CAMPAIGNS_API, type SendWindow } from '@wren/contracts';
import { http } from '@/lib/http/client';
import { bodyOf } from '@/test/fake-adapter';
import { serve } from '@/test/send-window-server';
import { renderScreen, signInForTest } from '@/test/render-page';
import BulkSmsPage from './pages/bulk-sms-page';

const original = http.defaults.adapter;
afterEach(() => {
  http.defaults.adapter = original;
  cleanup();
});

// Issue 41 item 1: the composer's send window (account default, own, any hour) and the review
// step's table of recipients per time zone with when each zone's window opens.
describe('campaign composer: send window', () => {
  it("shows the account's default, asks the estimate with an own window, and the review lists each zone", async () => {
    signInForTest('owner');
    const server = serve();
    const user = userEvent.setup();
    renderScreen(<BulkSmsPage />);
    await user.type(await screen.findByRole('textbox', { name: /Paste numbers/ }), '+14155550100');
    await user.type(screen.getByRole('textbox', { name: /^Message/ }), 'Hello');
    expect(
      await screen.findByRole('radio', { name: 'Use account default (Mon–Fri 09:00–20:00)' }),
    ).toBeChecked();
    // The default is the server's to apply: the estimate is asked without a window of its own.
    await waitFor(() => expect(server.calls.some((c) => c.url === CAMPAIGNS_API.estimate)).toBe(true));
    expect(bodyOf(server.calls.find((c) => c.url === CAMPAIGNS_API.estimate)!)).not.toHaveProperty(
      'sendWindow',
    );

    await user.click(screen.getByRole('radio', { name: 'Own window for this campaign' }));
    await user.click(screen.getByRole('checkbox', { name: 'Sat' }));
    await waitFor(() =>
      expect(
        server.calls.some(
          (c) =>
            c.url === CAMPAIGNS_API.estimate &&
            JSON.stringify((bodyOf(c) as { sendWindow?: SendWindow }).sendWindow?.days) === '[1,2,3,4,5,6]',
        ),
      ).toBe(true),
    );

    await user.click(screen.getByRole('button', { name: 'Review and send' }));
    const confirm = await screen.findByTestId('campaign-confirm');
    expect(within(confirm).getByText(/Mon–Sat 09:00–20:00/)).toBeInTheDocument();
    const plan = screen.getByRole('table', { name: 'Send window by time zone' });
    const rows = within(plan)
      .getAllByRole('row')
      .map((r) => r.textContent);
    expect(rows[1]).toContain('America/New_York');
    expect(rows[1]).toContain('Now');
    expect(rows[2]).toContain('Asia/Kolkata');
    expect(rows[2]).toContain('2026-12-03 09:00 local');
    expect(rows[2]).toContain('2026-12-03 03:30 UTC');
    expect(screen.getByText('The last recipients are sent from 2026-12-03 03:30 UTC.')).toBeInTheDocument();
  });

  it('refuses an own window with no day before asking to send', async () => {
    signInForTest('owner');
    serve();
    const user = userEvent.setup();
    renderScreen(<BulkSmsPage />);
    await user.type(await screen.findByRole('textbox', { name: /Paste numbers/ }), '+14155550100');
    await user.type(screen.getByRole('textbox', { name: /^Message/ }), 'Hello');
    await user.click(await screen.findByRole('radio', { name: 'Own window for this campaign' }));
    for (const day of ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'])
      await user.click(screen.getByRole('checkbox', { name: day }));
    await user.click(screen.getByRole('button', { name: 'Review and send' }));
    expect(await screen.findByText('Pick at least one day')).toBeInTheDocument();
    expect(screen.queryByTestId('campaign-confirm')).toBeNull();
  });
});
