import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { CAMPAIGNS_API } from '@wren/contracts';
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

// Issue 41 item 3: batches and a pause, and rates per network, in the composer's schedule step,
// checked before the review, shown in it, and sent with the campaign.
describe('campaign composer: delivery shaping', () => {
  it('sends batches and a network rate with the campaign, and refuses a prefix given twice', async () => {
    signInForTest('owner');
    const server = serve();
    const user = userEvent.setup();
    renderScreen(<BulkSmsPage />);
    await user.type(await screen.findByRole('textbox', { name: /Paste numbers/ }), '+14155550100');
    await user.type(screen.getByRole('textbox', { name: /^Message/ }), 'Hello');

    await user.click(screen.getByRole('switch', { name: /Send in batches/ }));
    const size = screen.getByRole('textbox', { name: 'Batch size' });
    await user.clear(size);
    await user.type(size, '500');
    const pause = screen.getByRole('textbox', { name: 'Pause between batches' });
    await user.clear(pause);
    await user.type(pause, '2');
    await user.click(screen.getByRole('button', { name: 'Add a network rate' }));
    await user.click(screen.getByRole('button', { name: 'Add a network rate' }));
    const prefixes = screen.getAllByRole('textbox', { name: 'Prefix' });
    const rates = screen.getAllByRole('textbox', { name: 'At most' });
    await user.type(prefixes[0]!, '+447');
    await user.type(rates[0]!, '100');
    await user.type(prefixes[1]!, '447');
    await user.type(rates[1]!, '50');
    await waitFor(() => expect(server.calls.some((c) => c.url === CAMPAIGNS_API.estimate)).toBe(true));

    await user.click(screen.getByRole('button', { name: 'Review and send' }));
    expect(await screen.findByText('+447 is given twice')).toBeInTheDocument();
    expect(screen.queryByTestId('campaign-confirm')).toBeNull();
    await user.click(screen.getAllByRole('button', { name: /Remove the rate for/ })[1]!);

    await user.click(screen.getByRole('button', { name: 'Review and send' }));
    const confirm = await screen.findByTestId('campaign-confirm');
    expect(within(confirm).getByText('500 messages, then a pause of 2 min')).toBeInTheDocument();
    expect(within(confirm).getByText('+447 at most 100 a minute')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /^Send to/ }));
    await waitFor(() =>
      expect(server.calls.some((c) => c.url === CAMPAIGNS_API.list && c.method === 'post')).toBe(true),
    );
    const created = bodyOf(server.calls.find((c) => c.url === CAMPAIGNS_API.list && c.method === 'post')!);
    expect(created).toMatchObject({
      batchSize: 500,
      batchPauseSeconds: 120,
      prefixRates: [{ prefix: '+447', perMinute: 100 }],
    });
  });
});
