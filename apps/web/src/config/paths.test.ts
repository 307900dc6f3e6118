import { describe, expect, it } from 'vitest';
import { buildPath, loginHref, paths, safeReturnUrl, withQuery, type AppPath } from './paths';

function allPaths(node: unknown): AppPath[] {
  if (node && typeof node === 'object' && 'path' in node && 'getHref' in node) return [node as AppPath];
  return Object.values(node as object).flatMap(allPaths);
}

describe('paths', () => {
  it('builds a route without parameters', () => {
    expect(paths.sms.single.getHref()).toBe('/sms/single');
    expect(paths.dashboard.getHref()).toBe('/dashboard');
  });

  it('fills in parameters, encoding them', () => {
    expect(paths.groups.contacts.getHref(42)).toBe('/groups/42/contacts');
    expect(paths.reports.campaignDetail.getHref('a/b c')).toBe('/reports/bulk-sms-detail/a%2Fb%20c');
    expect(buildPath('/x/:a/y/:b', ['1', 2])).toBe('/x/1/y/2');
  });

  it('throws when the number of values differs from the number of parameters', () => {
    const contacts = paths.groups.contacts.getHref as (...values: unknown[]) => string;
    const single = paths.sms.single.getHref as (...values: unknown[]) => string;
    expect(() => contacts()).toThrow('Route /groups/:id/contacts takes 1 value(s) but 0 were supplied');
    expect(() => contacts(1, 2)).toThrow('takes 1 value(s) but 2 were supplied');
    expect(() => single('extra')).toThrow('Route /sms/single takes 0 value(s) but 1 was supplied');
    expect(() => buildPath('/x/:a/y/:b', ['1'])).toThrow();
  });

  it('has every route of the spec (33 rows; / shares the dashboard row), /404, reset-password and the operator console, each titled', () => {
    const list = allPaths(paths);
    for (const p of list) expect(p.title.length).toBeGreaterThan(0);
    const patterns = list.map((p) => p.path).sort();
    expect(new Set(patterns).size).toBe(patterns.length);
    expect(patterns).toEqual(
      [
        ...['/', '/dashboard', '/sms/single', '/sms/bulk', '/sms/personalised-bulk'],
        ...[
          '/reports/sms-log',
          '/reports/bulk-sms-report',
          '/reports/scheduled-sms',
          '/reports/bulk-sms-detail/:id',
        ],
        ...['/profile', '/profile/update', '/profile/password', '/profile/api-detail', '/profile/api-doc'],
        ...['/auth', '/auth/login', '/auth/register', '/auth/forgot-password', '/auth/reset-password'],
        '/auth/confirm-registration',
        ...['/groups', '/groups/:id/contacts', '/sender-id', '/templates'],
        ...['/otp-service', '/otp-service/create', '/otp-service/doc', '/otp-service/doc/:id'],
        ...['/otp-service/:id/edit', '/otp-service/:id/view', '/otp-service/:id/test'],
        ...['/api', '/api/create', '/api/doc', '/api/:id/edit', '/api/:id/view', '/api/:id/report', '/404'],
        // The operator console (issue #16), for admins only.
        ...['/admin/accounts', '/admin/accounts/:id', '/admin/rate-plans', '/admin/sender-ids'],
        ...['/admin/audit', '/admin/system', '/admin/top-ups'],
        // Routes and margin (issue 38 items 2 and 5).
        ...['/admin/routes', '/admin/margin'],
        // Carrier connections (issue 38 item 1).
        '/admin/connections',
        // Members and invites (issue 39).
        ...['/settings/team', '/invite/:token'],
        // Sub-accounts for resellers (issue 39 item 4).
        ...['/settings/sub-accounts', '/settings/sub-accounts/:id'],
        // Billing (issue 39 item 5): its tabs are pages under /billing.
        ...['/billing', '/billing/statements', '/billing/balance', '/billing/prices', '/billing/ledger'],
        // SMPP accounts (issue 37), under the API pages.
        ...['/api/smpp', '/api/smpp/create', '/api/smpp/:id', '/api/doc/smpp'],
        // The account's send window (issue 41).
        '/settings/send-window',
        // Numbers and conversations (issue 40).
        ...['/admin/numbers', '/settings/numbers', '/messaging/conversations'],
      ].sort(),
    );
  });

  it('appends a query string without empty values', () => {
    expect(withQuery('/a', { x: '1', y: undefined, z: '' })).toBe('/a?x=1');
    expect(withQuery('/a', {})).toBe('/a');
  });

  it('keeps return-to addresses inside the app, defaulting to /', () => {
    expect(safeReturnUrl('/reports/sms-log?x=1')).toBe('/reports/sms-log?x=1');
    expect(safeReturnUrl(null)).toBe('/');
    expect(safeReturnUrl('')).toBe('/');
    expect(safeReturnUrl('https://evil.example')).toBe('/');
    expect(safeReturnUrl('//evil.example')).toBe('/');
    expect(safeReturnUrl('/\\evil.example')).toBe('/');
    expect(safeReturnUrl('/auth/login')).toBe('/');
  });

  it('builds the login address with the interrupted address', () => {
    expect(loginHref('/groups/7/contacts')).toBe('/auth/login?returnUrl=%2Fgroups%2F7%2Fcontacts');
    expect(loginHref('/')).toBe('/auth/login');
    expect(loginHref()).toBe('/auth/login');
  });
});
