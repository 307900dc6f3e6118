import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { CAMPAIGNS_API, CONTACTS_API, MESSAGING_API, type CampaignEstimate } from '@wren/contracts';
import { http } from '@/lib/http/client';
import { bodyOf, fakeAdapter } from '@/test/fake-adapter';
import { renderScreen, signInForTest } from '@/test/render-page';
import { missingValuesLines } from './missing-values';
import PersonalisedSmsPage from './pages/personalised-sms-page';

const original = http.defaults.adapter;
afterEach(() => {
  http.defaults.adapter = original;
  cleanup();
});

const estimate: CampaignEstimate = {
  recipients: 40,
  invalid: 0,
  duplicates: 0,
  suppressed: 0,
  segments: 2,
  encoding: 'GSM-7',
  characters: 170,
  perSegmentMinor: 40,
  costMinor: 52,
  currency: 'USD',
  balanceMinor: 10_000,
  balanceAfterMinor: 9_948,
  issues: [],
  preview: [
    {
      row: 0,
      recipient: '+14155550101',
      text: 'Hi Ann of Acme',
      segments: 1,
      encoding: 'GSM-7',
      costMinor: 1,
      problem: null,
    },
    {
      row: 0,
      recipient: '+14155550102',
      text: 'Hi Bob of ',
      segments: 1,
      encoding: 'GSM-7',
      costMinor: 1,
      problem: null,
      missing: ['company'],
    },
    {
      row: 0,
      recipient: '+14155550103',
      text: `Hi Cy of ${'I'.repeat(150)}`,
      segments: 2,
      encoding: 'GSM-7',
      costMinor: 2,
      problem: null,
    },
    {
      row: 0,
      recipient: '+14155550104',
      text: 'Hi Di of Umbrella',
      segments: 1,
      encoding: 'GSM-7',
      costMinor: 1,
      problem: null,
    },
  ],
  missingValues: [
    { placeholder: 'company', recipients: 12 },
    { placeholder: 'name', recipients: 1 },
  ],
};

// Issue 47 item 2: Personalised SMS from a contact group; the review shows each recipient's message
// and warns about the placeholders some recipients have no value for.
describe('personalised SMS to a contact group', () => {
  it('sends the group (no file) and reviews the first recipients as sent, warning about missing values', async () => {
    signInForTest('owner');
    const server = fakeAdapter((config) => {
      if (config.url === CAMPAIGNS_API.estimate) return { status: 200, data: estimate };
      if (config.url === MESSAGING_API.balance)
        return { status: 200, data: { balanceMinor: 10_000, currency: 'USD' } };
      if (config.url?.includes('sender-ids'))
        return { status: 200, data: { items: [], approval: 'auto', platformSender: 'Wren' } };
      if (config.url === CONTACTS_API.groups)
        return {
          status: 200,
          data: {
            items: [
              {
                id: 'g1',
                name: 'Customers',
                contactCount: 40,
                createdAt: '2026-01-01',
                updatedAt: '2026-01-01',
              },
            ],
          },
        };
      if (config.url === '/api/groups/g1/fields') return { status: 200, data: { fields: ['company'] } };
      return { status: 404 };
    });
    http.defaults.adapter = server;
    const user = userEvent.setup();
    renderScreen(<PersonalisedSmsPage />);
    await user.click(await screen.findByRole('radio', { name: 'Contact group' }));
    expect(screen.queryByTestId('recipients-upload')).toBeNull();
    await user.click(await screen.findByPlaceholderText('Choose groups'));
    await user.click(await screen.findByRole('option', { name: /Customers/ }));
    // The contacts' fields are the columns to insert.
    await user.click(await screen.findByRole('button', { name: '{{company}}' }));
    await user.click(screen.getByRole('button', { name: '{{name}}' }));
    await waitFor(() =>
      expect(
        server.calls.some((c) => {
          const b = c.url === CAMPAIGNS_API.estimate ? (bodyOf(c) as Record<string, unknown>) : null;
          return (
            b !== null &&
            b.kind === 'personalised' &&
            JSON.stringify(b.groupIds) === '["g1"]' &&
            b.uploadId === undefined &&
            b.text === '{{company}}{{name}}'
          );
        }),
      ).toBe(true),
    );

    await user.click(screen.getByRole('button', { name: 'Review and send' }));
    await screen.findByTestId('campaign-confirm');
    const preview = screen.getByTestId('review-preview');
    const rows = within(preview).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(3);
    expect(rows[0]).toHaveTextContent('+14155550101Hi Ann of Acme1');
    expect(rows[2]).toHaveTextContent(/\+14155550103Hi Cy of I+2/);
    const warning = screen.getByTestId('missing-values');
    expect(
      within(warning)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['12 recipients have no value for {{company}}', '1 recipient has no value for {{name}}']);
  });
});

describe('missingValuesLines', () => {
  it('names each placeholder with its count, and nothing when none is missing', () => {
    expect(missingValuesLines([{ placeholder: 'company', recipients: 1200 }])).toEqual([
      '1,200 recipients have no value for {{company}}',
    ]);
    expect(missingValuesLines([])).toEqual([]);
    expect(missingValuesLines(undefined)).toEqual([]);
  });
});
