import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import {
  ACCOUNT_ROLES,
  CAMPAIGNS_API,
  MESSAGING_API,
  roleCan,
  type CampaignDto,
  type MessageDto,
} from '@wren/contracts';
import { http } from '@/lib/http/client';
import { fakeAdapter, type FakeAdapter } from '@/test/fake-adapter';
import { renderScreen, signInForTest } from '@/test/render-page';
import CampaignDetailPage from './pages/campaign-detail-page';
import CampaignReportPage from './pages/campaign-report-page';
import ScheduledSmsPage from './pages/scheduled-sms-page';

const original = http.defaults.adapter;
afterEach(() => {
  http.defaults.adapter = original;
  cleanup();
});

const MESSAGE: MessageDto = {
  id: 'm1',
  campaignId: null,
  recipient: '+14155550001',
  sender: 'Wren',
  text: 'Reminder',
  encoding: 'GSM-7',
  segments: 1,
  priceMinor: 2,
  currency: 'USD',
  status: 'scheduled',
  error: null,
  scheduledAt: '2099-03-01T01:00:00Z',
  createdAt: '2025-01-01T10:00:00.000Z',
  submittedAt: null,
  receiptDueAt: null,
  doneAt: null,
};

const campaign = (id: string, status: CampaignDto['status']): CampaignDto => ({
  id,
  kind: 'bulk',
  name: `Spring ${id}`,
  status,
  sender: 'Wren',
  text: 'Hello',
  encoding: 'GSM-7',
  segments: 1,
  recipients: 10,
  invalid: 0,
  duplicates: 0,
  suppressed: 0,
  materialised: 10,
  counts: {} as CampaignDto['counts'],
  delivered: 5,
  failed: 2,
  pending: 3,
  deliveryRate: 0.7,
  costMinor: 20,
  refundedMinor: 0,
  currency: 'USD',
  ratePerMinute: null,
  scheduledAt: status === 'scheduled' ? '2099-03-01T01:00:00Z' : null,
  timezone: null,
  createdAt: '2025-01-01T10:00:00.000Z',
  startedAt: null,
  finishedAt: null,
  resendOf: null,
  trackLinks: false,
  clicks: 0,
  uniqueClicks: 0,
  clickThroughRate: 0,
});

/** Answers every read these pages make; records what was asked. */
function server(): FakeAdapter {
  return (http.defaults.adapter = fakeAdapter((config) => {
    const url = config.url ?? '';
    if (url === MESSAGING_API.log) return { status: 200, data: { items: [MESSAGE], nextCursor: null } };
    if (url === CAMPAIGNS_API.list) {
      return {
        status: 200,
        data: { items: [campaign('c1', 'scheduled'), campaign('c2', 'sending')], nextCursor: null },
      };
    }
    if (url === CAMPAIGNS_API.item.replace(':id', 'c1'))
      return { status: 200, data: campaign('c1', 'scheduled') };
    if (url.endsWith('/timeline')) return { status: 200, data: [] };
    if (url.endsWith('/messages')) return { status: 200, data: { items: [], nextCursor: null } };
    return { status: 404 };
  }));
}

const SEND_ACTIONS = /^(Pause|Resume|Cancel|Reschedule|Resend to .* failed|New bulk SMS|Schedule a message)$/;
const sendButtons = () => screen.queryAllByRole('button', { name: SEND_ACTIONS });

// Issue 39: cancel, pause, resume, reschedule and resend are messages:send's; a role that reads
// these pages (analyst: messages:read) sees none of them; export is reports:read's.
describe.each(ACCOUNT_ROLES.filter((r) => roleCan(r, 'messages:read')))('reports as %s', (role) => {
  const may = roleCan(role, 'messages:send');

  it(`scheduled SMS: Cancel and the campaigns' actions ${may ? 'show' : 'are hidden'}`, async () => {
    signInForTest(role);
    server();
    renderScreen(<ScheduledSmsPage />);
    expect((await screen.findAllByText('Reminder')).length).toBeGreaterThan(0);
    expect((await screen.findAllByText('Spring c1')).length).toBeGreaterThan(0);
    expect(screen.queryAllByRole('button', { name: 'Cancel the message to +14155550001' }).length > 0).toBe(
      may,
    );
    expect(screen.queryAllByRole('columnheader', { name: 'Actions' }).length > 0).toBe(may);
    expect(sendButtons().length > 0).toBe(may);
  });

  it(`campaign report: New bulk SMS, Pause and Cancel ${may ? 'show' : 'are hidden'}`, async () => {
    signInForTest(role);
    server();
    renderScreen(<CampaignReportPage />);
    expect((await screen.findAllByText('Spring c2')).length).toBeGreaterThan(0);
    expect(screen.queryAllByRole('button', { name: 'Pause' }).length > 0).toBe(may);
    expect(screen.queryAllByRole('link', { name: 'New bulk SMS' }).length > 0).toBe(may);
    expect(sendButtons().length > 0).toBe(may);
  });

  it(`campaign detail: Reschedule, Cancel and Resend ${may ? 'show' : 'are hidden'}; Export with reports:read`, async () => {
    signInForTest(role);
    server();
    renderScreen(
      <Routes>
        <Route path="/reports/bulk-sms-detail/:id" element={<CampaignDetailPage />} />
      </Routes>,
      '/reports/bulk-sms-detail/c1',
    );
    expect((await screen.findAllByText('Spring c1')).length).toBeGreaterThan(0);
    expect(!!screen.queryByRole('button', { name: 'Reschedule' })).toBe(may);
    expect(!!screen.queryByRole('button', { name: 'Resend to 2 failed' })).toBe(may);
    expect(sendButtons().length > 0).toBe(may);
    expect(!!screen.queryByRole('button', { name: 'Export CSV' })).toBe(roleCan(role, 'reports:read'));
  });
});

// Issue 41: a tracked campaign's clicks over time, by device and country, on its detail page; an
// untracked campaign does not ask for them.
describe('campaign detail: clicks', () => {
  const clicks = {
    bucket: 'hour',
    points: [
      { at: '2025-01-01T10:00:00.000Z', clicks: 4, firstClicks: 3 },
      { at: '2025-01-01T11:00:00.000Z', clicks: 1, firstClicks: 0 },
    ],
    devices: [
      { device: 'mobile', clicks: 4 },
      { device: 'desktop', clicks: 1 },
    ],
    countries: [
      { country: 'GB', clicks: 3 },
      { country: null, clicks: 2 },
    ],
  };
  const open = (tracked: boolean) => {
    signInForTest('analyst');
    const fake = (http.defaults.adapter = fakeAdapter((config) => {
      const url = config.url ?? '';
      if (url === CAMPAIGNS_API.item.replace(':id', 'c1'))
        return {
          status: 200,
          data: { ...campaign('c1', 'completed'), trackLinks: tracked, clicks: 5, uniqueClicks: 3 },
        };
      if (url.endsWith('/clicks')) return { status: 200, data: clicks };
      if (url.endsWith('/timeline')) return { status: 200, data: [] };
      if (url.endsWith('/messages')) return { status: 200, data: { items: [], nextCursor: null } };
      return { status: 404 };
    }));
    renderScreen(
      <Routes>
        <Route path="/reports/bulk-sms-detail/:id" element={<CampaignDetailPage />} />
      </Routes>,
      '/reports/bulk-sms-detail/c1',
    );
    return fake;
  };

  it('shows clicks per hour with first clicks, and the clicks by device and by country', async () => {
    open(true);
    const card = await screen.findByTestId('campaign-clicks');
    await screen.findByText('Clicks per hour');
    expect(card.textContent).toContain('By device');
    expect(card.textContent).toMatch(/Mobile\s*4/);
    expect(card.textContent).toMatch(/Desktop\s*1/);
    expect(card.textContent).toMatch(/United Kingdom\s*3/);
    expect(card.textContent).toMatch(/Unknown\s*2/);
  });

  it('does not ask for clicks of a campaign without tracked links', async () => {
    const fake = open(false);
    expect((await screen.findAllByText('Spring c1')).length).toBeGreaterThan(0);
    expect(screen.queryByTestId('campaign-clicks')).toBeNull();
    expect(fake.calls.some((c) => (c.url ?? '').endsWith('/clicks'))).toBe(false);
  });
});
