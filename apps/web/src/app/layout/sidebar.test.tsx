import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { MemoryRouter } from 'react-router';
import { Sidebar } from './sidebar';

function renderSidebar(folded = false, at = '/dashboard') {
  render(
    <MantineProvider env="test">
      <MemoryRouter initialEntries={[at]}>
        <Sidebar folded={folded} />
      </MemoryRouter>
    </MantineProvider>,
  );
  return screen.getByRole('navigation', { name: 'Main menu' });
}

const linksOf = (nav: HTMLElement) =>
  within(nav)
    .getAllByRole('link')
    .map((a) => [a.getAttribute('aria-label') ?? a.textContent, a.getAttribute('href')]);

describe('sidebar menu', () => {
  it('is exactly the menu of the spec, with the Settings group open on its pages', () => {
    const nav = renderSidebar(false, '/groups');
    expect(within(nav).getByText('Messaging')).toBeInTheDocument();
    expect(within(nav).getByText('Reports')).toBeInTheDocument();
    expect(within(nav).getByText('Config.')).toBeInTheDocument();
    expect(within(nav).getByRole('button', { name: 'Settings' })).toBeInTheDocument();
    expect(linksOf(nav)).toEqual([
      ['Dashboard', '/dashboard'],
      ['Single SMS', '/sms/single'],
      ['Bulk SMS', '/sms/bulk'],
      ['Personalised SMS', '/sms/personalised-bulk'],
      ['SMS Log', '/reports/sms-log'],
      ['Campaign Report', '/reports/bulk-sms-report'],
      ['Scheduled SMS', '/reports/scheduled-sms'],
      ['SMS & OTP API', '/api'],
      ['Sender ID', '/sender-id'],
      ['Contact Group', '/groups'],
      ['Saved Messages', '/templates'],
    ]);
    expect(within(nav).getByRole('link', { name: 'Contact Group' })).toHaveAttribute('aria-current', 'page');
  });

  it('keeps every entry reachable, by its name, when folded to icons', () => {
    const nav = renderSidebar(true, '/api/3/view');
    expect(linksOf(nav).map(([label]) => label)).toEqual([
      'Dashboard',
      'Single SMS',
      'Bulk SMS',
      'Personalised SMS',
      'SMS Log',
      'Campaign Report',
      'Scheduled SMS',
      'SMS & OTP API',
      'Sender ID',
      'Contact Group',
      'Saved Messages',
    ]);
    expect(within(nav).getByRole('link', { name: 'SMS & OTP API' })).toHaveAttribute('aria-current', 'page');
  });
});
