import { beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MESSAGING_API, SENDER_ID_API, TEMPLATES_API, type SenderIdDto } from '@wren/contracts';
import { http } from '@/lib/http/client';
import { bodyOf, fakeAdapter, type FakeAdapter, type FakeReply } from '@/test/fake-adapter';
import { renderPage, signIn } from '../test-utils';
import SingleSmsPage from './single-sms-page';

const PLAN = {
  currency: 'USD',
  prices: [
    { prefix: '', country: null, priceMinor: 5 },
    { prefix: '+1', country: 'US/CA', priceMinor: 1 },
    { prefix: '+44', country: 'GB', priceMinor: 4 },
  ],
};

const sender = (value: string, isDefault = false): SenderIdDto => ({
  id: value,
  value,
  kind: 'alphanumeric',
  purpose: 'Alerts',
  sampleMessage: 'Hi',
  status: 'approved',
  reason: null,
  isDefault,
  createdAt: '2025-01-01T00:00:00Z',
  decidedAt: '2025-01-01T00:00:00Z',
});

let server: FakeAdapter;
let sendReply: FakeReply;
let balanceMinor = 500;

beforeEach(() => {
  signIn();
  balanceMinor = 500;
  sendReply = {
    status: 202,
    data: { messages: [{}, {}], totalPriceMinor: 5, currency: 'USD', balanceMinor: 495 },
  };
  server = http.defaults.adapter = fakeAdapter((config) => {
    if (config.url === MESSAGING_API.pricing) return { status: 200, data: PLAN };
    if (config.url === MESSAGING_API.balance) return { status: 200, data: { balanceMinor, currency: 'USD' } };
    if (config.url === SENDER_ID_API.list)
      return {
        status: 200,
        data: { items: [sender('ACME', true), sender('SHOP')], approval: 'manual', platformSender: 'Wren' },
      };
    if (config.url === TEMPLATES_API.list) {
      return { status: 200, data: { items: [{ id: 't1', name: 'Welcome', text: 'Welcome to Wren!' }] } };
    }
    if (config.url === MESSAGING_API.sendSingle) return sendReply;
    return { status: 404 };
  });
});

const sends = () => server.calls.filter((c) => c.url === MESSAGING_API.sendSingle).map(bodyOf);

async function fillForm(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByLabelText(/Recipients/));
  await user.paste('+1 415 555 2671\n+44 20 7946 0958');
  await user.type(screen.getByRole('textbox', { name: /Message/ }), 'Hello');
}

describe('Single SMS page', { timeout: 20_000 }, () => {
  it('shows the balance and cost, confirms, and sends E.164 numbers with the default sender left to the server', async () => {
    const user = userEvent.setup({ delay: null });
    renderPage(<SingleSmsPage />);
    expect(await screen.findByTestId('balance')).toHaveTextContent('$5.00');
    await waitFor(() =>
      expect(screen.getByRole('combobox', { name: 'Sender ID' })).toHaveValue('ACME (default)'),
    );
    await fillForm(user);
    expect(screen.getByText('2 recipients')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('estimated-cost')).toHaveTextContent('$0.05'));

    await user.click(screen.getByRole('button', { name: 'Review and send' }));
    const dialog = await screen.findByRole('dialog', { name: 'Review your message' });
    expect(within(dialog).getByTestId('confirm-cost')).toHaveTextContent('$0.05');
    await user.click(within(dialog).getByRole('button', { name: 'Send to 2 recipients' }));

    await waitFor(() =>
      expect(sends()).toEqual([{ recipients: ['+14155552671', '+442079460958'], text: 'Hello' }]),
    );
    // One confirmation (defect 7): the banner, no toast as well.
    expect(await screen.findByTestId('sent-notice')).toHaveTextContent(/Message queued to 2 recipients/);
    expect(screen.getAllByText(/Message queued to 2 recipients/)).toHaveLength(1);
    expect(screen.getByRole('link', { name: 'View in SMS log' })).toHaveAttribute('href', '/reports/sms-log');
    expect(screen.getByTestId('balance')).toHaveTextContent('$4.95');
    expect(screen.getByRole('textbox', { name: /Message/ })).toHaveValue('');
  });

  it('disables the send, with the reason and a way to top up, while it costs more than the balance', async () => {
    // Issue 47 item 1: the refusal came only after the confirm step.
    balanceMinor = 3;
    const user = userEvent.setup({ delay: null });
    renderPage(<SingleSmsPage />);
    expect(await screen.findByTestId('balance')).toHaveTextContent('$0.03');
    await fillForm(user);
    const button = screen.getByRole('button', { name: 'Review and send' });
    await waitFor(() => expect(button).toBeDisabled());
    const reason = screen.getByTestId('send-blocked');
    expect(reason).toHaveTextContent('This send costs $0.05, more than your balance of $0.03.');
    expect(button).toHaveAttribute('aria-describedby', reason.id);
    expect(within(reason).getByRole('link', { name: 'Top up' })).toHaveAttribute('href', '/billing/balance');
    // Fewer recipients: it fits, and the button works again.
    await user.click(screen.getByRole('button', { name: /Remove \+44/ }));
    await waitFor(() => expect(button).toBeEnabled());
    expect(screen.queryByTestId('send-blocked')).toBeNull();
  });

  it('sends a chosen sender ID by name', async () => {
    const user = userEvent.setup({ delay: null });
    renderPage(<SingleSmsPage />);
    await waitFor(() =>
      expect(screen.getByRole('combobox', { name: 'Sender ID' })).toHaveValue('ACME (default)'),
    );
    await user.click(screen.getByRole('combobox', { name: 'Sender ID' }));
    await user.click(await screen.findByRole('option', { name: 'SHOP' }));
    await fillForm(user);
    await user.click(screen.getByRole('button', { name: 'Review and send' }));
    await user.click(await screen.findByRole('button', { name: 'Send to 2 recipients' }));
    await waitFor(() => expect(sends()).toHaveLength(1));
    expect(sends()[0]).toMatchObject({ senderId: 'SHOP' });
  });

  it("puts the server's field errors on the fields", async () => {
    sendReply = {
      status: 400,
      data: { errors: { text: ['The message is too long: 11 parts (at most 10)'] } },
    };
    const user = userEvent.setup({ delay: null });
    renderPage(<SingleSmsPage />);
    await fillForm(user);
    await user.click(screen.getByRole('button', { name: 'Review and send' }));
    await user.click(await screen.findByRole('button', { name: 'Send to 2 recipients' }));
    expect(await screen.findByText('The message is too long: 11 parts (at most 10)')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /Message/ })).toHaveValue('Hello');
  });

  it('inserts a saved message at the cursor', async () => {
    const user = userEvent.setup({ delay: null });
    renderPage(<SingleSmsPage />);
    const text = screen.getByRole('textbox', { name: /Message/ });
    await user.type(text, 'Hi! ');
    await user.click(screen.getByRole('button', { name: 'Insert template' }));
    await user.click(await screen.findByRole('menuitem', { name: /Welcome/ }));
    expect(text).toHaveValue('Hi! Welcome to Wren!');
  });

  it('blocks a send with invalid numbers or no text, and checks the schedule', async () => {
    const user = userEvent.setup({ delay: null });
    renderPage(<SingleSmsPage />);
    await user.click(screen.getByLabelText(/Recipients/));
    await user.paste('12, +14155552671');
    await user.click(screen.getByRole('button', { name: 'Review and send' }));
    expect(await screen.findByText('Fix or remove the invalid number (marked in red)')).toBeInTheDocument();
    expect(screen.getByText('Write a message')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Remove 12' }));
    await user.type(screen.getByRole('textbox', { name: /Message/ }), 'Hi');
    await user.click(screen.getByRole('switch', { name: /Schedule for later/ }));
    expect(screen.getByRole('combobox', { name: /Time zone/ })).toHaveValue('America/New_York');
    // Defect 6: the time starts at the next round quarter hour in that zone, not 12:00 AM.
    expect(screen.getByRole('button', { name: /Send at/ })).toHaveTextContent(/, \d\d:(00|15|30|45)$/);
    expect(sends()).toEqual([]);
  });
});
