import { randomUUID } from 'node:crypto';
import { HUB_COMMANDS, HUB_REQUESTS } from '@wren/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../test/client';
import { startServer, type TestServer } from '../../../test/harness';
import { call, connectErrorOf, connectHub, recordPushes } from '../../realtime/test-client';
import { createChild } from '../../modules/sub-accounts/test-fixtures';
import { routeTable } from './route-auth';

/**
 * Issue #14: the authorization matrix. Every route and hub method, against another account, no
 * token, a bad token and a non-admin. Table-driven: a route or hub method missing from the tables
 * below fails the first test, so a new one must say how it is kept to its account.
 */
let server: TestServer;
let owner: ApiClient;
let other: ApiClient;
let fx: Record<string, string>;

beforeAll(async () => {
  server = await startServer({ SENDER_ID_APPROVAL: 'manual' });
  owner = server.client();
  other = server.client();
  const a = await owner.register();
  await other.register();
  const group = (await owner.post('/api/groups', { name: 'Owner group' })).body;
  const contact = (await owner.post(`/api/groups/${group.id}/contacts`, { phone: '+14155550111' })).body;
  const form = new FormData();
  form.append('file', new Blob(['phone\n+14155550112\n'], { type: 'text/csv' }), 'a.csv');
  const imp = await owner.request('POST', `/api/groups/${group.id}/contacts/fileUpload`, undefined, {
    raw: form,
  });
  const template = (await owner.post('/api/templates', { name: 'Owner template', text: 'hi' })).body;
  const sender = await owner.post('/api/sender-ids', {
    value: 'OWNERCO',
    purpose: 'Owner alerts',
    sampleMessage: 'Your code is 1234',
  });
  const sent = await owner.post('/api/sms/single', { recipients: ['+14155550113'], text: 'owner secret' });
  const log = (await owner.get('/api/sms/log')).body;
  await owner.post('/api/suppressions', { phone: '+14155550114' });
  const otpService = (await owner.post('/api/otp-services', { name: 'Owner OTP', template: 'Code {{code}}' }))
    .body;
  const apiKey = (await owner.post('/api/api-keys', { name: 'Owner key', scopes: ['sms:send'] })).body;
  const smppAccount = (await owner.post('/api/smpp-accounts', { name: 'Owner SMPP', systemId: 'ownersmpp' }))
    .body;
  const invite = (await owner.post('/api/invites', { email: 'invitee@example.com', role: 'sender' })).body;
  const bulk = await owner.post('/api/campaigns', {
    numbers: '+14155550116',
    text: 'owner campaign',
    scheduleAt: new Date(Date.now() + 86_400_000).toISOString(),
  });
  expect(bulk.status).toBe(202);
  const child = await createChild(server, owner, 'Owner client');
  const topUp = (await owner.post('/api/billing/top-ups', { amountMinor: 1000 })).body;
  expect([imp.status, sender.status, sent.status]).toEqual([201, 201, 202]);
  fx = {
    accountId: a.user.accountId,
    userId: a.user.id,
    ratePlan: (await server.ctx.db.selectFrom('rate_plans').select('id').executeTakeFirstOrThrow()).id,
    route: randomUUID(),
    group: group.id,
    contact: contact.id,
    import: imp.body.importId,
    template: template.id,
    sender: sender.body.id,
    message: log.items[0].id,
    campaign: log.items[0].campaignId ?? randomUUID(),
    bulk: bulk.body.campaign.id,
    number: encodeURIComponent('+14155550114'),
    otpService: otpService.id,
    apiKey: apiKey.key.id,
    smppAccount: smppAccount.account.id,
    invite: invite.id,
    subAccount: child.id,
    topUp: topUp.id,
  };
});
afterAll(async () => {
  await server?.close();
});

/**
 * How each non-public route is kept to its account. `own`: it acts only on the caller's own data
 * (no id of another account can be named). A function: the path (and body) naming the owner's
 * resource; another account must get 404 (or 403) and the owner's data must stay as it was.
 */
type Case = 'own' | ((f: Record<string, string>) => { path: string; body?: unknown; upload?: true });
/** A non-admin trying to send the owner's UK traffic through a route of their own. */
const stolenConnection = {
  name: 'stolen',
  host: '127.0.0.1',
  port: 2775,
  systemId: 'thief',
  password: 'x',
  prefixes: ['+999'],
  reason: 'take the traffic',
};
const stolenRoute = {
  name: 'steal',
  prefix: '+44',
  strategy: 'priority',
  entries: [{ connection: 'simulator', cost: '0.001' }],
  reason: 'take the traffic',
};

const MATRIX: Record<string, Case> = {
  'POST /api/auth/logout': 'own',
  'POST /api/me/password': 'own',
  'GET /api/me': 'own',
  'PATCH /api/me': 'own',
  'GET /api/me/picture': 'own',
  'DELETE /api/me/picture': 'own',
  'POST /api/me/picture/fileUpload': 'own',
  'GET /api/me/events': 'own',
  // Two-factor sign-in (issue 39 item 3): the caller's own settings and their own account's rule.
  'GET /api/me/two-factor': 'own',
  'POST /api/me/two-factor/enroll': 'own',
  'POST /api/me/two-factor/confirm': 'own',
  'POST /api/me/two-factor/disable': 'own',
  'POST /api/me/two-factor/recovery-codes': 'own',
  'PUT /api/account/two-factor': 'own',
  // Members and invites (issue 39): another account's member or invite is not found; switching
  // to an account one is not a member of is refused.
  'GET /api/members': 'own',
  'PATCH /api/members/:userId': (f) => ({ path: `/api/members/${f.userId}`, body: { role: 'sender' } }),
  'DELETE /api/members/:userId': (f) => ({ path: `/api/members/${f.userId}` }),
  'GET /api/invites': 'own',
  'POST /api/invites': 'own',
  'DELETE /api/invites/:id': (f) => ({ path: `/api/invites/${f.invite}` }),
  'GET /api/me/accounts': 'own',
  'POST /api/auth/switch-account': (f) => ({
    path: '/api/auth/switch-account',
    body: { accountId: f.accountId },
  }),
  'POST /api/sms/single': 'own',
  'GET /api/sms/log': 'own',
  'GET /api/sms/log/export.csv': 'own',
  'GET /api/sms/log/:id': (f) => ({ path: `/api/sms/log/${f.message}` }),
  'POST /api/sms/log/:id/cancel': (f) => ({ path: `/api/sms/log/${f.message}/cancel` }),
  'GET /api/pricing': 'own',
  'GET /api/balance': 'own',
  // The account's default send window (issue 41): always the caller's own account.
  'GET /api/settings/send-window': 'own',
  'PUT /api/settings/send-window': 'own',
  'GET /api/dashboard/summary': 'own',
  // Monthly statements (issue 39 item 5): always the caller's account (no account id in the path).
  'GET /api/statements': 'own',
  'GET /api/statements/:month': 'own',
  'GET /api/statements/:month/entries': 'own',
  'GET /api/statements/:month/csv': 'own',
  'GET /api/statements/:month/pdf': 'own',
  // Sub-accounts (issue 39 item 4): another account naming the owner's child gets 404 (and
  // cannot move money, reprice, lock or read statements of it); the status is the caller's own.
  'GET /api/account/status': 'own',
  'GET /api/sub-accounts': 'own',
  'POST /api/sub-accounts': 'own',
  'GET /api/sub-accounts/:id': (f) => ({ path: `/api/sub-accounts/${f.subAccount}` }),
  'POST /api/sub-accounts/:id/transfers': (f) => ({
    path: `/api/sub-accounts/${f.subAccount}/transfers`,
    body: { direction: 'from_child', amountMinor: 1 },
  }),
  'GET /api/sub-accounts/:id/pricing': (f) => ({ path: `/api/sub-accounts/${f.subAccount}/pricing` }),
  'PUT /api/sub-accounts/:id/pricing': (f) => ({
    path: `/api/sub-accounts/${f.subAccount}/pricing`,
    body: { markupBp: 9000, countries: [] },
  }),
  'GET /api/sub-accounts/:id/usage': (f) => ({
    path: `/api/sub-accounts/${f.subAccount}/usage?from=2026-01-01&to=2026-12-31`,
  }),
  'PUT /api/sub-accounts/:id/lock': (f) => ({
    path: `/api/sub-accounts/${f.subAccount}/lock`,
    body: { reason: 'not yours' },
  }),
  'DELETE /api/sub-accounts/:id/lock': (f) => ({ path: `/api/sub-accounts/${f.subAccount}/lock` }),
  'GET /api/sub-accounts/:id/statements': (f) => ({ path: `/api/sub-accounts/${f.subAccount}/statements` }),
  'GET /api/sub-accounts/:id/statements/:month': (f) => ({
    path: `/api/sub-accounts/${f.subAccount}/statements/2026-01`,
  }),
  'GET /api/sub-accounts/:id/statements/:month/csv': (f) => ({
    path: `/api/sub-accounts/${f.subAccount}/statements/2026-01/csv`,
  }),
  'GET /api/sub-accounts/:id/statements/:month/pdf': (f) => ({
    path: `/api/sub-accounts/${f.subAccount}/statements/2026-01/pdf`,
  }),
  'GET /api/sender-ids': 'own',
  'POST /api/sender-ids': 'own',
  'DELETE /api/sender-ids/:id': (f) => ({ path: `/api/sender-ids/${f.sender}` }),
  'POST /api/sender-ids/:id/default': (f) => ({ path: `/api/sender-ids/${f.sender}/default` }),
  'GET /api/admin/sender-ids': 'own', // admin only: the non-admin column below
  'POST /api/admin/sender-ids/:id/approve': (f) => ({ path: `/api/admin/sender-ids/${f.sender}/approve` }),
  'POST /api/admin/sender-ids/:id/reject': (f) => ({
    path: `/api/admin/sender-ids/${f.sender}/reject`,
    body: { reason: 'no' },
  }),
  // Operator console (issue #16): admin only; another (non-admin) account gets 403 on the owner's.
  'GET /api/admin/accounts': 'own',
  'GET /api/admin/accounts/:id': (f) => ({ path: `/api/admin/accounts/${f.accountId}` }),
  'POST /api/admin/accounts/:id/adjustments': (f) => ({
    path: `/api/admin/accounts/${f.accountId}/adjustments`,
    body: { amountMinor: 100000, reason: 'free money' },
  }),
  'GET /api/admin/accounts/:id/ledger': (f) => ({ path: `/api/admin/accounts/${f.accountId}/ledger` }),
  'GET /api/admin/accounts/:id/ledger/export': (f) => ({
    path: `/api/admin/accounts/${f.accountId}/ledger/export`,
  }),
  'POST /api/admin/accounts/:id/lock': (f) => ({
    path: `/api/admin/accounts/${f.accountId}/lock`,
    body: { reason: 'lock the owner' },
  }),
  'POST /api/admin/accounts/:id/unlock': (f) => ({
    path: `/api/admin/accounts/${f.accountId}/unlock`,
    body: {},
  }),
  'PUT /api/admin/accounts/:id/rate-plan': (f) => ({
    path: `/api/admin/accounts/${f.accountId}/rate-plan`,
    body: { ratePlanId: null },
  }),
  'PUT /api/admin/accounts/:id/limits': (f) => ({
    path: `/api/admin/accounts/${f.accountId}/limits`,
    body: { maxPerSecond: 1, dailyCap: 0, allowedCountries: [] },
  }),
  'PUT /api/admin/users/:id/role': (f) => ({
    path: `/api/admin/users/${f.userId}/role`,
    body: { role: 'user' },
  }),
  // Routes and margin (issue 38): admin only.
  'GET /api/admin/routes': 'own',
  'POST /api/admin/routes': () => ({
    path: '/api/admin/routes',
    body: stolenRoute,
  }),
  'PUT /api/admin/routes/:id': (f) => ({
    path: `/api/admin/routes/${f.route}`,
    body: stolenRoute,
  }),
  'DELETE /api/admin/routes/:id': (f) => ({
    path: `/api/admin/routes/${f.route}`,
    body: { reason: 'remove it' },
  }),
  // Carrier connections (issue 38 item 1): admin only.
  'GET /api/admin/connections': 'own',
  'POST /api/admin/connections': () => ({
    path: '/api/admin/connections',
    body: stolenConnection,
  }),
  'PUT /api/admin/connections/:name': () => ({
    path: '/api/admin/connections/simulator',
    body: stolenConnection,
  }),
  'DELETE /api/admin/connections/:name': () => ({
    path: '/api/admin/connections/simulator',
    body: { reason: 'remove it' },
  }),
  'POST /api/admin/connections/:name/drain': () => ({
    path: '/api/admin/connections/simulator/drain',
    body: { reason: 'drain it' },
  }),
  'DELETE /api/admin/connections/:name/drain': () => ({
    path: '/api/admin/connections/simulator/drain',
    body: { reason: 'drain it' },
  }),
  // Numbers (issue 40 item 0): the inventory is admin only; a customer lists their own.
  'GET /api/admin/numbers': 'own',
  'POST /api/admin/numbers': () => ({
    path: '/api/admin/numbers',
    body: { number: '+447700900999', kind: 'long', country: 'GB', connection: null, monthlyPriceMinor: 1 },
  }),
  'PUT /api/admin/numbers/:id': () => ({
    path: `/api/admin/numbers/${randomUUID()}`,
    body: { monthlyPriceMinor: 1 },
  }),
  'DELETE /api/admin/numbers/:id': () => ({ path: `/api/admin/numbers/${randomUUID()}` }),
  'POST /api/admin/numbers/:id/assignment': (f) => ({
    path: `/api/admin/numbers/${randomUUID()}/assignment`,
    body: { accountId: f.accountId },
  }),
  'DELETE /api/admin/numbers/:id/assignment': () => ({
    path: `/api/admin/numbers/${randomUUID()}/assignment`,
  }),
  'GET /api/numbers': 'own',
  // Conversations (issue 40 item 1): another account's real thread is tried in conversations.test.ts.
  'GET /api/conversations': 'own',
  'GET /api/conversations/:id': () => ({ path: `/api/conversations/${randomUUID()}` }),
  'GET /api/conversations/:id/messages': () => ({ path: `/api/conversations/${randomUUID()}/messages` }),
  'POST /api/conversations/:id/read': () => ({ path: `/api/conversations/${randomUUID()}/read` }),
  'PUT /api/conversations/:id/archive': () => ({
    path: `/api/conversations/${randomUUID()}/archive`,
    body: { archived: true },
  }),
  'PUT /api/conversations/:id/assignee': () => ({
    path: `/api/conversations/${randomUUID()}/assignee`,
    body: { userId: null },
  }),
  'POST /api/conversations/:id/reply': () => ({
    path: `/api/conversations/${randomUUID()}/reply`,
    body: { text: 'not yours' },
  }),
  'POST /api/admin/routes/test': () => ({ path: '/api/admin/routes/test', body: { to: '+447700900123' } }),
  'GET /api/admin/margin': () => ({ path: '/api/admin/margin?from=2026-12-01&to=2026-12-03' }),
  'GET /api/admin/margin/export': () => ({ path: '/api/admin/margin/export?from=2026-12-01&to=2026-12-03' }),
  'GET /api/admin/accounts/:id/messages': (f) => ({ path: `/api/admin/accounts/${f.accountId}/messages` }),
  'GET /api/admin/accounts/:id/messages/:messageId': (f) => ({
    path: `/api/admin/accounts/${f.accountId}/messages/${f.message}`,
  }),
  'GET /api/admin/rate-plans': 'own',
  'POST /api/admin/rate-plans': 'own',
  'GET /api/admin/rate-plans/:id': (f) => ({ path: `/api/admin/rate-plans/${f.ratePlan}` }),
  'PATCH /api/admin/rate-plans/:id': (f) => ({
    path: `/api/admin/rate-plans/${f.ratePlan}`,
    body: { name: 'x' },
  }),
  'DELETE /api/admin/rate-plans/:id': (f) => ({ path: `/api/admin/rate-plans/${f.ratePlan}` }),
  'POST /api/admin/rate-plans/:id/copy': (f) => ({
    path: `/api/admin/rate-plans/${f.ratePlan}/copy`,
    body: { name: 'copy' },
  }),
  'POST /api/admin/rate-plans/:id/default': (f) => ({ path: `/api/admin/rate-plans/${f.ratePlan}/default` }),
  'PUT /api/admin/rate-plans/:id/prices': (f) => ({
    path: `/api/admin/rate-plans/${f.ratePlan}/prices`,
    body: { prices: [] },
  }),
  'POST /api/admin/rate-plans/:id/import': (f) => ({
    path: `/api/admin/rate-plans/${f.ratePlan}/import`,
    body: { csv: 'prefix,price\n,0\n', mode: 'replace' },
  }),
  'GET /api/admin/rate-plans/:id/export': (f) => ({ path: `/api/admin/rate-plans/${f.ratePlan}/export` }),
  'GET /api/admin/rate-plans/:id/preview': (f) => ({
    path: `/api/admin/rate-plans/${f.ratePlan}/preview?to=%2B14155550100`,
  }),
  'POST /api/admin/sender-ids/bulk': (f) => ({
    path: '/api/admin/sender-ids/bulk',
    body: { ids: [f.sender], action: 'reject', reason: 'not yours' },
  }),
  'GET /api/admin/audit': 'own',
  // Billing (issue 47): the caller's own account; operators' decisions on requests are admin only.
  'GET /api/billing': 'own',
  'GET /api/billing/top-ups': 'own',
  'POST /api/billing/top-ups': 'own',
  'POST /api/billing/checkout': 'own',
  'GET /api/billing/prices': 'own',
  'GET /api/billing/prices/export': 'own',
  'GET /api/billing/ledger': 'own',
  'GET /api/billing/ledger/export': 'own',
  'GET /api/billing/low-balance': 'own',
  'PUT /api/billing/low-balance': 'own',
  'GET /api/admin/top-ups': 'own',
  'POST /api/admin/top-ups/:id/approve': (f) => ({ path: `/api/admin/top-ups/${f.topUp}/approve`, body: {} }),
  'POST /api/admin/top-ups/:id/reject': (f) => ({ path: `/api/admin/top-ups/${f.topUp}/reject`, body: {} }),
  'GET /api/admin/system': 'own',
  'POST /api/admin/system/connections/:name/pause': () => ({
    path: '/api/admin/system/connections/simulator/pause',
    body: {},
  }),
  'POST /api/admin/system/connections/:name/resume': () => ({
    path: '/api/admin/system/connections/simulator/resume',
    body: {},
  }),
  'GET /api/groups': 'own',
  'POST /api/groups': 'own',
  'GET /api/groups/:id': (f) => ({ path: `/api/groups/${f.group}` }),
  'GET /api/groups/:id/fields': (f) => ({ path: `/api/groups/${f.group}/fields` }),
  'PATCH /api/groups/:id': (f) => ({ path: `/api/groups/${f.group}`, body: { name: 'stolen' } }),
  'DELETE /api/groups/:id': (f) => ({ path: `/api/groups/${f.group}` }),
  'POST /api/groups/:id/contacts/fileUpload': (f) => ({
    path: `/api/groups/${f.group}/contacts/fileUpload`,
    upload: true,
  }),
  'POST /api/groups/:id/imports/:importId/commit': (f) => ({
    path: `/api/groups/${f.group}/imports/${f.import}/commit`,
  }),
  'GET /api/groups/:id/imports/:importId': (f) => ({ path: `/api/groups/${f.group}/imports/${f.import}` }),
  'GET /api/groups/:id/imports/:importId/report': (f) => ({
    path: `/api/groups/${f.group}/imports/${f.import}/report`,
  }),
  'GET /api/groups/:id/contacts': (f) => ({ path: `/api/groups/${f.group}/contacts` }),
  'POST /api/groups/:id/contacts': (f) => ({
    path: `/api/groups/${f.group}/contacts`,
    body: { phone: '+14155550199' },
  }),
  'GET /api/groups/:id/contacts/:contactId': (f) => ({
    path: `/api/groups/${f.group}/contacts/${f.contact}`,
  }),
  'PATCH /api/groups/:id/contacts/:contactId': (f) => ({
    path: `/api/groups/${f.group}/contacts/${f.contact}`,
    body: { name: 'stolen' },
  }),
  'DELETE /api/groups/:id/contacts/:contactId': (f) => ({
    path: `/api/groups/${f.group}/contacts/${f.contact}`,
  }),
  'POST /api/groups/:id/contacts/bulk-delete': (f) => ({
    path: `/api/groups/${f.group}/contacts/bulk-delete`,
    body: { ids: [f.contact] },
  }),
  'GET /api/groups/:id/contacts/export': (f) => ({ path: `/api/groups/${f.group}/contacts/export` }),
  'GET /api/templates': 'own',
  'POST /api/templates': 'own',
  'GET /api/templates/:id': (f) => ({ path: `/api/templates/${f.template}` }),
  'PATCH /api/templates/:id': (f) => ({ path: `/api/templates/${f.template}`, body: { name: 'stolen' } }),
  'DELETE /api/templates/:id': (f) => ({ path: `/api/templates/${f.template}` }),
  'GET /api/inbound': 'own',
  'GET /api/suppressions': 'own',
  'POST /api/suppressions': 'own',
  'DELETE /api/suppressions/:number': (f) => ({ path: `/api/suppressions/${f.number}` }),
  'GET /api/otp-services': 'own',
  'POST /api/otp-services': 'own',
  'GET /api/otp-services/:id': (f) => ({ path: `/api/otp-services/${f.otpService}` }),
  'PATCH /api/otp-services/:id': (f) => ({
    path: `/api/otp-services/${f.otpService}`,
    body: { name: 'stolen' },
  }),
  'DELETE /api/otp-services/:id': (f) => ({ path: `/api/otp-services/${f.otpService}` }),
  'GET /api/otp-services/:id/stats': (f) => ({ path: `/api/otp-services/${f.otpService}/stats` }),
  'GET /api/otp-services/:id/verifications': (f) => ({
    path: `/api/otp-services/${f.otpService}/verifications`,
  }),
  'POST /api/campaigns/uploads': 'own',
  // Another account's upload id is "gone" (400), tested in campaigns.test.ts; its contact group, filling
  // {{name}} or not, is not found (issue 47 item 2; campaign-contact-fields.test.ts).
  'POST /api/campaigns/estimate': (f) => ({
    path: '/api/campaigns/estimate',
    body: { groupIds: [f.group], text: 'Hi {{name}}' },
  }),
  'POST /api/campaigns/estimate/issues.csv': (f) => ({
    path: '/api/campaigns/estimate/issues.csv',
    body: { kind: 'personalised', groupIds: [f.group], text: 'Hi {{name}}' },
  }),
  'POST /api/campaigns': (f) => ({
    path: '/api/campaigns',
    body: { groupIds: [f.group], text: 'Hi {{name}}' },
  }),
  'GET /api/campaigns': 'own',
  'GET /api/campaigns/:id': (f) => ({ path: `/api/campaigns/${f.bulk}` }),
  'GET /api/campaigns/:id/messages': (f) => ({ path: `/api/campaigns/${f.bulk}/messages` }),
  'GET /api/campaigns/:id/messages/export.csv': (f) => ({
    path: `/api/campaigns/${f.bulk}/messages/export.csv`,
  }),
  'GET /api/campaigns/:id/timeline': (f) => ({ path: `/api/campaigns/${f.bulk}/timeline` }),
  'GET /api/campaigns/:id/clicks': (f) => ({ path: `/api/campaigns/${f.bulk}/clicks` }),
  'POST /api/campaigns/:id/pause': (f) => ({ path: `/api/campaigns/${f.bulk}/pause` }),
  'POST /api/campaigns/:id/resume': (f) => ({ path: `/api/campaigns/${f.bulk}/resume` }),
  'POST /api/campaigns/:id/cancel': (f) => ({ path: `/api/campaigns/${f.bulk}/cancel` }),
  'POST /api/campaigns/:id/reschedule': (f) => ({
    path: `/api/campaigns/${f.bulk}/reschedule`,
    body: { scheduleAt: new Date(Date.now() + 7_200_000).toISOString() },
  }),
  'POST /api/campaigns/:id/resend-failed': (f) => ({ path: `/api/campaigns/${f.bulk}/resend-failed` }),
  'POST /v1/otp/:serviceId/send': (f) => ({
    path: `/v1/otp/${f.otpService}/send`,
    body: { to: '+14155550115' },
  }),
  'POST /v1/otp/:serviceId/check': (f) => ({
    path: `/v1/otp/${f.otpService}/check`,
    body: { to: '+14155550115', code: '123456' },
  }),
  'GET /api/api-keys': 'own',
  'POST /api/api-keys': 'own',
  'GET /api/api-keys/:id': (f) => ({ path: `/api/api-keys/${f.apiKey}` }),
  'PATCH /api/api-keys/:id': (f) => ({ path: `/api/api-keys/${f.apiKey}`, body: { name: 'stolen' } }),
  'POST /api/api-keys/:id/revoke': (f) => ({ path: `/api/api-keys/${f.apiKey}/revoke` }),
  'POST /api/api-keys/:id/rotate': (f) => ({ path: `/api/api-keys/${f.apiKey}/rotate` }),
  'GET /api/api-keys/:id/report': (f) => ({ path: `/api/api-keys/${f.apiKey}/report` }),
  // SMPP accounts (issue 37): another account's is not found, and stays as it was.
  'GET /api/smpp-server': 'own',
  'GET /api/smpp-accounts': 'own',
  'POST /api/smpp-accounts': 'own',
  'GET /api/smpp-accounts/:id': (f) => ({ path: `/api/smpp-accounts/${f.smppAccount}` }),
  'PATCH /api/smpp-accounts/:id': (f) => ({
    path: `/api/smpp-accounts/${f.smppAccount}`,
    body: { maxBinds: 9 },
  }),
  'DELETE /api/smpp-accounts/:id': (f) => ({ path: `/api/smpp-accounts/${f.smppAccount}` }),
  'POST /api/smpp-accounts/:id/rotate': (f) => ({ path: `/api/smpp-accounts/${f.smppAccount}/rotate` }),
  'POST /api/smpp-accounts/:id/disable': (f) => ({ path: `/api/smpp-accounts/${f.smppAccount}/disable` }),
  'POST /api/smpp-accounts/:id/enable': (f) => ({ path: `/api/smpp-accounts/${f.smppAccount}/enable` }),
  'GET /api/smpp-accounts/:id/binds': (f) => ({ path: `/api/smpp-accounts/${f.smppAccount}/binds` }),
  // A delivery of the owner's is made in modules/v1/v1.test.ts (another account's replay → 404 there).
  'POST /api/webhooks/deliveries/:id/replay': () => ({
    path: `/api/webhooks/deliveries/evt_${randomUUID()}/replay`,
  }),
  'GET /api/developer': 'own',
  'PUT /api/developer/webhook': 'own',
  'POST /api/developer/webhook/rotate-secret': 'own',
  // /v1 routes take API keys, not sessions (401 for the session clients here): the other account's
  // key against every /v1 endpoint (404) is tested in modules/v1/v1.test.ts.
  'POST /v1/messages': 'own',
  'GET /v1/messages': 'own',
  'GET /v1/messages/:id': 'own',
  'GET /v1/balance': 'own',
  'POST /v1/campaigns': 'own',
  'GET /v1/campaigns/:id': 'own',
  'POST /v1/contacts': 'own',
  'GET /v1/groups': 'own',
  'GET /v1/groups/:id/contacts': 'own',
  'DELETE /v1/groups/:id/contacts/:contactId': 'own',
  // The API reference viewer's own page and document copies (signed-in users; no account data).
  'GET /v1/reference': 'own',
  'GET /v1/reference/': 'own',
  'GET /v1/reference/openapi.json': 'own',
  'GET /v1/reference/openapi.yaml': 'own',
};

/** Hub methods: `own` (reads the caller's account only) or the owner's resource id to try. */
const HUB_MATRIX: Record<string, 'own' | ((f: Record<string, string>) => unknown[])> = {
  GetAccountBalance: 'own',
  GetDeliveryStatus: 'own',
  GetPerformanceData: 'own',
  GetSenderIdList: 'own',
  GetSmsTemplates: 'own',
  GetGroupList: 'own',
  GetCampaignDeliveryStatus: (f) => [f.campaign],
  GetCampaignDetail: (f) => [f.campaign],
  CreateSenderId: 'own',
  SaveSmsTemplate: 'own',
};

const routes = () =>
  routeTable(server.app).filter(
    (r) => r.access !== 'public' && r.method !== 'HEAD' && r.method !== 'OPTIONS',
  );

/** What the owner sees of their own data: must not change whatever the other account sends. */
async function ownerState() {
  const [group, contacts, templates, senders, log, suppressions, child, pricing, smpp] = await Promise.all([
    owner.get(`/api/groups/${fx.group}`),
    owner.get(`/api/groups/${fx.group}/contacts`),
    owner.get('/api/templates'),
    owner.get('/api/sender-ids'),
    owner.get(`/api/sms/log/${fx.message}`),
    owner.get('/api/suppressions'),
    owner.get(`/api/sub-accounts/${fx.subAccount}`),
    owner.get(`/api/sub-accounts/${fx.subAccount}/pricing`),
    owner.get(`/api/smpp-accounts/${fx.smppAccount}`),
  ]);
  const strip = (b: unknown) => JSON.parse(JSON.stringify(b, (k, v) => (k === 'updatedAt' ? undefined : v)));
  return strip({
    group: group.body,
    contacts: contacts.body,
    templates: templates.body,
    senders: senders.body,
    status: log.body.status,
    suppressions: suppressions.body,
    child: child.body,
    pricing: pricing.body,
    smpp: smpp.body,
  });
}

describe('authorization matrix', () => {
  it('every route and hub method is in the matrix (a new one must be added here)', () => {
    const listed = routes().map((r) => `${r.method} ${r.url}`);
    expect(listed.filter((k) => !(k in MATRIX))).toEqual([]);
    expect(Object.keys(MATRIX).filter((k) => !listed.includes(k))).toEqual([]);
    const methods = [...HUB_REQUESTS, ...HUB_COMMANDS] as string[];
    expect(methods.filter((m) => !(m in HUB_MATRIX))).toEqual([]);
    expect(Object.keys(HUB_MATRIX).filter((m) => !methods.includes(m))).toEqual([]);
  });

  it("another account gets 404/403 on every route naming the owner's resource, and changes nothing", async () => {
    const before = await ownerState();
    let tried = 0;
    const failures: string[] = [];
    for (const r of routes()) {
      const c = MATRIX[`${r.method} ${r.url}`];
      if (!c || c === 'own') continue;
      const { path, body, upload } = c(fx);
      const form = new FormData();
      form.append('file', new Blob(['phone\n+14155550120\n'], { type: 'text/csv' }), 'x.csv');
      const res = await other.request(r.method, path, body, upload ? { raw: form } : undefined);
      tried += 1;
      if (res.status !== 404 && res.status !== 403) failures.push(`${r.method} ${path} -> ${res.status}`);
      expect(JSON.stringify(res.body ?? '')).not.toContain('owner secret');
    }
    expect(failures).toEqual([]);
    expect(await ownerState()).toEqual(before);
    console.log(`authz matrix (other account): ${tried} cases tried, ${failures.length} failures`);
  });

  it('no token, a bad token and a non-admin are refused on every route', async () => {
    const fill = (url: string) => url.replace(/:\w+/g, () => randomUUID());
    const xsrfClient = server.client();
    await xsrfClient.get('/api/auth/xsrf');
    const xsrf = xsrfClient.cookies.get('XSRF-TOKEN')!;
    let tried = 0;
    const failures: string[] = [];
    for (const r of routes()) {
      const url = server.url + fill(r.url);
      for (const auth of [undefined, 'Bearer not.a.token', 'Bearer ' + 'e30.e30.']) {
        const headers: Record<string, string> = { cookie: `XSRF-TOKEN=${xsrf}`, 'x-xsrf-token': xsrf };
        if (auth) headers.authorization = auth;
        const res = await fetch(url, { method: r.method, headers });
        await res.arrayBuffer();
        tried += 1;
        if (res.status !== 401) failures.push(`${r.method} ${r.url} ${auth ?? 'no token'} -> ${res.status}`);
      }
      if (r.access === 'admin') {
        const res = await other.request(r.method, fill(r.url));
        tried += 1;
        if (res.status !== 403) failures.push(`${r.method} ${r.url} non-admin -> ${res.status}`);
      }
    }
    expect(failures).toEqual([]);
    console.log(`authz matrix (no/bad token, non-admin): ${tried} cases tried, ${failures.length} failures`);
  });

  it('hub: no or bad token cannot connect; another account sees none of the owner’s data', async () => {
    expect(await connectErrorOf(server.url, {})).toBe('Unauthorized');
    expect(await connectErrorOf(server.url, { token: 'not.a.token' })).toBe('Unauthorized');
    const socket = await connectHub(server.url, other.accessToken!);
    const pushes = recordPushes(socket);
    let tried = 2;
    const failures: string[] = [];
    try {
      for (const [method, c] of Object.entries(HUB_MATRIX)) {
        if (c === 'own') {
          if ((HUB_COMMANDS as readonly string[]).includes(method)) continue; // acts on the caller
          const ack = await call(socket, method);
          tried += 1;
          const text = JSON.stringify(ack);
          for (const secret of [
            fx.group,
            fx.template,
            fx.sender,
            'OWNERCO',
            'Owner group',
            'Owner template',
          ]) {
            if (text.includes(secret)) failures.push(`${method} shows ${secret}`);
          }
        } else {
          // The owner's id gets exactly what an id that exists nowhere gets: nothing to tell apart.
          const ack = await call(socket, method, ...c(fx));
          const none = await call(socket, method, ...c({ ...fx, campaign: randomUUID() }));
          tried += 1;
          if (JSON.stringify(ack) !== JSON.stringify(none) || JSON.stringify(ack).includes('owner secret')) {
            failures.push(`${method} answered for the owner's resource: ${JSON.stringify(ack)}`);
          }
        }
      }
    } finally {
      socket.close();
    }
    expect(failures).toEqual([]);
    expect(JSON.stringify(pushes.pushes)).not.toContain(fx.accountId);
    console.log(`authz matrix (hub): ${tried} cases tried, ${failures.length} failures`);
  });
});
