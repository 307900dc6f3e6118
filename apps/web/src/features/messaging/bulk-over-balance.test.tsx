import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { CAMPAIGNS_API, MESSAGING_API } from '@wren/contracts';
import { http } from '@/lib/http/client';
import { fakeAdapter } from '@/test/fake-adapter';
import { renderScreen, signInForTest } from '@/test/render-page';
import BulkSmsPage from './pages/bulk-sms-page';

const original = http.defaults.adapter;
afterEach(() => {
  http.defaults.adapter = original;
  cleanup();
});

// Issue 47 item 1: Bulk SMS's send is disabled, with the reason, while the estimate is over the
// balance (the same SendButton as Single SMS).
describe('bulk SMS over the balance', () => {
  it('disables Review and send and says by how much, with a way to top up', async () => {
    signInForTest('owner');
    http.defaults.adapter = fakeAdapter((config) => {
      if (config.url === CAMPAIGNS_API.estimate) {
        return {
          status: 200,
          data: {
            recipients: 400,
            invalid: 0,
            duplicates: 0,
            suppressed: 0,
            segments: 1,
            encoding: 'GSM-7',
            characters: 5,
            perSegmentMinor: 2000,
            costMinor: 2000,
            currency: 'USD',
            balanceMinor: 1000,
            balanceAfterMinor: -1000,
            issues: [],
            preview: [],
          },
        };
      }
      if (config.url === MESSAGING_API.balance)
        return { status: 200, data: { balanceMinor: 1000, currency: 'USD' } };
      if (config.url?.includes('sender-ids'))
        return { status: 200, data: { items: [], approval: 'auto', platformSender: 'Wren' } };
      if (config.url?.includes('groups')) return { status: 200, data: { items: [] } };
      return { status: 404 };
    });
    const user = userEvent.setup();
    renderScreen(<BulkSmsPage />);
    await user.type(await screen.findByRole('textbox', { name: /Paste numbers/ }), '+14155550100');
    await user.type(screen.getByRole('textbox', { name: /^Message/ }), 'Hello');
    const button = screen.getByRole('button', { name: 'Review and send' });
    await waitFor(() => expect(button).toBeDisabled());
    expect(screen.getByTestId('send-blocked')).toHaveTextContent(
      'This send costs $20.00, more than your balance of $10.00.',
    );
  });
});
