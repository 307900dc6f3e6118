import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import type { CampaignDto } from '@wren/contracts';
import { renderScreen, signInForTest } from '@/test/render-page';
import { CampaignHeaderCard } from './campaign-header-card';

afterEach(cleanup);

const campaign: CampaignDto = {
  id: 'c1',
  kind: 'bulk',
  name: 'Windowed',
  status: 'sending',
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
  failed: 0,
  pending: 5,
  deliveryRate: 1,
  costMinor: 20,
  refundedMinor: 0,
  currency: 'USD',
  ratePerMinute: null,
  scheduledAt: null,
  timezone: null,
  createdAt: '2025-01-01T10:00:00.000Z',
  startedAt: null,
  finishedAt: null,
  resendOf: null,
  trackLinks: false,
  clicks: 0,
  uniqueClicks: 0,
  clickThroughRate: 0,
};

// Issue 41 item 1: the campaign detail says in which hours of the recipients' time it sends.
describe('campaign header: send window', () => {
  it('shows the window the campaign was accepted with, and nothing without one', () => {
    signInForTest('owner');
    const props = { zone: 'UTC', live: true, onResend: () => {}, resending: false, onExport: () => {} };
    renderScreen(
      <CampaignHeaderCard
        {...props}
        c={{
          ...campaign,
          sendWindow: { days: [1, 2, 3, 4, 5], start: '09:00', end: '20:00', overnight: false },
        }}
      />,
    );
    expect(screen.getByText(/sends Mon–Fri 09:00–20:00, recipient's local time/)).toBeInTheDocument();
    cleanup();
    renderScreen(<CampaignHeaderCard {...props} c={{ ...campaign, sendWindow: null }} />);
    expect(screen.queryByText(/recipient's local time/)).toBeNull();
  });
});

// Issue 41 item 3: the detail says how the campaign is shaped and when it should finish.
describe('campaign header: delivery shaping', () => {
  it('shows batches, prefix rates and the projected finish, and no finish once none is projected', () => {
    signInForTest('owner');
    const props = { zone: 'UTC', live: true, onResend: () => {}, resending: false, onExport: () => {} };
    renderScreen(
      <CampaignHeaderCard
        {...props}
        c={{
          ...campaign,
          batchSize: 500,
          batchPauseSeconds: 300,
          prefixRates: [{ prefix: '+447', perMinute: 100 }],
          projectedFinishAt: '2025-01-01T12:30:00.000Z',
        }}
      />,
    );
    expect(screen.getByText(/in batches of 500, 5 min apart/)).toBeInTheDocument();
    expect(screen.getByText(/\+447 at most 100 a minute/)).toBeInTheDocument();
    expect(screen.getByTestId('projected-finish')).toHaveTextContent(
      'Projected finish: 1 Jan 2025, 12:30 (UTC)',
    );
    cleanup();
    renderScreen(<CampaignHeaderCard {...props} c={{ ...campaign, projectedFinishAt: null }} />);
    expect(screen.queryByTestId('projected-finish')).toBeNull();
  });
});
