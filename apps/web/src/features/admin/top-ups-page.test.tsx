import { beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ADMIN_TOP_UPS_API, type AdminTopUpDto } from '@wren/contracts';
import { http } from '@/lib/http/client';
import { fakeAdapter, type FakeAdapter } from '@/test/fake-adapter';
import { renderScreen, signInForTest } from '@/test/render-page';
import TopUpsPage from './pages/top-ups-page';

let server: FakeAdapter;
let adminQueue: AdminTopUpDto[];
const ID = '00000000-0000-4000-8000-000000000001';
const topUp = (): AdminTopUpDto => ({
  id: ID,
  provider: 'manual',
  status: 'pending',
  amountMinor: 2500,
  currency: 'USD',
  note: 'Bank transfer',
  decisionNote: null,
  requestedBy: 'Ada Lovelace',
  createdAt: '2026-11-30T10:00:00.000Z',
  decidedAt: null,
  accountId: '00000000-0000-4000-8000-0000000000aa',
  accountName: 'Acme',
  decidedBy: null,
});

beforeEach(() => {
  signInForTest('owner');
  adminQueue = [];
  server = http.defaults.adapter = fakeAdapter((c) => {
    if (c.url === ADMIN_TOP_UPS_API.list) return { status: 200, data: { items: adminQueue } };
    if (c.url?.startsWith('/api/admin/top-ups/'))
      return { status: 200, data: { ...topUp(), status: 'approved' } };
    return { status: 404 };
  });
});

describe('Admin → Top-up requests', () => {
  it('says when nothing is waiting', async () => {
    renderScreen(<TopUpsPage />);
    expect(await screen.findByText('No requests waiting')).toBeInTheDocument();
  });

  it('approves a request only after the confirmation', async () => {
    adminQueue = [
      { ...topUp(), accountId: '00000000-0000-4000-8000-0000000000aa', accountName: 'Acme', decidedBy: null },
    ];
    renderScreen(<TopUpsPage />);
    const table = await screen.findByTestId('admin-top-ups');
    await userEvent.click(within(table).getByRole('button', { name: 'Approve…' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Credit $25.00 to “Acme”?');
    expect(server.calls.filter((c) => c.method === 'post')).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Approve and credit' }));
    await waitFor(() =>
      expect(server.calls.filter((c) => c.method === 'post').map((c) => c.url)).toEqual([
        `/api/admin/top-ups/${ID}/approve`,
      ]),
    );
  });
});
