import type { Permission } from '@wren/contracts';

/**
 * Every route of the web app (SPEC.md §2) and the one place that builds their URLs.
 * `getHref` throws when the number of values differs from the number of `:params`.
 */
export type ParamValue = string | number;

/** A tuple with one value per `:param` in the pattern. */
export type RouteValues<P extends string> = P extends `${string}:${string}/${infer Rest}`
  ? [ParamValue, ...RouteValues<Rest>]
  : P extends `${string}:${string}`
    ? [ParamValue]
    : [];

export interface AppPath<P extends string = string> {
  /** The pattern, as the router matches it. */
  readonly path: P;
  /** The screen title, shown in the page heading, breadcrumbs and document title. */
  readonly title: string;
  readonly getHref: (...values: RouteValues<P>) => string;
  /**
   * What the member's role needs to use the page (issue 39): its menu entry is hidden and the
   * route shows "Your role (X) can't …" without it (app/permission-gate.tsx). None: every member.
   */
  readonly permission?: Permission;
}

const PARAM = /:[A-Za-z_][A-Za-z0-9_]*/g;

export function buildPath(pattern: string, values: readonly ParamValue[]): string {
  const params = pattern.match(PARAM) ?? [];
  if (params.length !== values.length) {
    throw new Error(
      `Route ${pattern} takes ${params.length} value(s) but ${values.length} ${values.length === 1 ? 'was' : 'were'} supplied`,
    );
  }
  let i = 0;
  return pattern.replace(PARAM, () => encodeURIComponent(String(values[i++])));
}

function route<P extends string>(path: P, title: string, permission?: Permission): AppPath<P> {
  return { path, title, getHref: (...values) => buildPath(path, values), permission };
}

/** Appends a query string, leaving out empty values. */
export function withQuery(href: string, query: Record<string, string | null | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value) search.set(key, value);
  const qs = search.toString();
  return qs ? `${href}?${qs}` : href;
}

export const paths = {
  home: route('/', 'Dashboard'),
  dashboard: route('/dashboard', 'Dashboard'),
  notFound: route('/404', 'Page not found'),
  auth: {
    root: route('/auth', 'Sign in'),
    login: route('/auth/login', 'Sign in'),
    register: route('/auth/register', 'Create account'),
    forgotPassword: route('/auth/forgot-password', 'Forgot password'),
    resetPassword: route('/auth/reset-password', 'Reset password'),
    confirmRegistration: route('/auth/confirm-registration', 'Create account'),
  },
  sms: {
    single: route('/sms/single', 'Single SMS', 'messages:send'),
    bulk: route('/sms/bulk', 'Bulk SMS', 'messages:send'),
    personalised: route('/sms/personalised-bulk', 'Personalised SMS', 'messages:send'),
  },
  conversations: route('/messaging/conversations', 'Conversations', 'messages:read'),
  reports: {
    smsLog: route('/reports/sms-log', 'SMS log', 'messages:read'),
    campaigns: route('/reports/bulk-sms-report', 'Campaign report', 'messages:read'),
    scheduled: route('/reports/scheduled-sms', 'Scheduled SMS', 'messages:read'),
    campaignDetail: route('/reports/bulk-sms-detail/:id', 'Campaign detail', 'messages:read'),
  },
  profile: {
    view: route('/profile', 'Profile'),
    update: route('/profile/update', 'Update profile'),
    password: route('/profile/password', 'Change password'),
    apiDetail: route('/profile/api-detail', 'API detail', 'developer:manage'),
    apiDoc: route('/profile/api-doc', 'API documentation', 'developer:manage'),
  },
  groups: {
    list: route('/groups', 'Contact groups', 'contacts:read'),
    contacts: route('/groups/:id/contacts', 'Contacts', 'contacts:read'),
  },
  senderIds: route('/sender-id', 'Sender IDs', 'sender-ids:read'),
  /** Settings → Numbers: the long and short codes assigned to the account (issue 40 item 0). */
  numbers: route('/settings/numbers', 'Numbers', 'sender-ids:read'),
  /** Settings → Team: members, roles and invites (issue 39). */
  team: route('/settings/team', 'Team', 'members:read'),
  /** Settings → Sub-accounts: a reseller's child accounts (issue 39 item 4). */
  subAccounts: route('/settings/sub-accounts', 'Sub-accounts', 'subaccounts:manage'),
  subAccount: route('/settings/sub-accounts/:id', 'Sub-account', 'subaccounts:manage'),
  /** Settings → Send window: the account's default hours for campaigns (issue 41). */
  sendWindow: route('/settings/send-window', 'Send window', 'messages:send'),
  /** An emailed invite's link (public: a new or a signed-in user accepts it). */
  invite: route('/invite/:token', 'Join an account'),
  templates: route('/templates', 'Saved messages', 'templates:read'),
  /** Billing (issue 39 item 5; issue 47 adds balance, prices, ledger and top-up as more tabs). */
  billing: {
    root: route('/billing', 'Billing', 'billing:read'),
    statements: route('/billing/statements', 'Statements', 'billing:read'),
    balance: route('/billing/balance', 'Balance', 'billing:read'),
    prices: route('/billing/prices', 'Prices', 'billing:read'),
    ledger: route('/billing/ledger', 'Ledger', 'billing:read'),
  },
  otp: {
    list: route('/otp-service', 'OTP services', 'developer:manage'),
    create: route('/otp-service/create', 'Create OTP service', 'developer:manage'),
    doc: route('/otp-service/doc', 'OTP documentation', 'developer:manage'),
    docItem: route('/otp-service/doc/:id', 'OTP service documentation', 'developer:manage'),
    edit: route('/otp-service/:id/edit', 'Edit OTP service', 'developer:manage'),
    view: route('/otp-service/:id/view', 'OTP service', 'developer:manage'),
    test: route('/otp-service/:id/test', 'Test OTP service', 'developer:manage'),
  },
  api: {
    list: route('/api', 'SMS & OTP API', 'developer:manage'),
    create: route('/api/create', 'Create API key', 'developer:manage'),
    doc: route('/api/doc', 'API documentation', 'developer:manage'),
    edit: route('/api/:id/edit', 'Edit API key', 'developer:manage'),
    view: route('/api/:id/view', 'API key', 'developer:manage'),
    report: route('/api/:id/report', 'API usage report', 'developer:manage'),
  },
  /** SMPP accounts (issue 37): logins for clients that bind to Wren's SMPP server, under the API pages. */
  smpp: {
    list: route('/api/smpp', 'SMPP accounts', 'developer:manage'),
    create: route('/api/smpp/create', 'Create SMPP account', 'developer:manage'),
    view: route('/api/smpp/:id', 'SMPP account', 'developer:manage'),
    doc: route('/api/doc/smpp', 'SMPP documentation', 'developer:manage'),
  },
  /** The operator console (issue #16): admins only. */
  admin: {
    accounts: route('/admin/accounts', 'Accounts'),
    account: route('/admin/accounts/:id', 'Account'),
    ratePlans: route('/admin/rate-plans', 'Rate plans'),
    senderIds: route('/admin/sender-ids', 'Sender ID approvals'),
    audit: route('/admin/audit', 'Audit log'),
    system: route('/admin/system', 'System status'),
    topUps: route('/admin/top-ups', 'Top-up requests'),
    routes: route('/admin/routes', 'Routes'),
    /** The SMPP carrier connections Wren binds to (issue 38 item 1). */
    connections: route('/admin/connections', 'Connections'),
    /** Operators' inventory of long and short codes (issue 40 item 0). */
    numbers: route('/admin/numbers', 'Numbers'),
    margin: route('/admin/margin', 'Margin'),
  },
} as const;

/** Query parameter that carries the interrupted address to the login page. */
export const RETURN_URL_PARAM = 'returnUrl';

/** Accepts only same-app addresses (no `//host` or `/\host`); the default is `/`. */
export function safeReturnUrl(value: string | null | undefined): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\'))
    return paths.home.path;
  if (value === paths.auth.root.path || value.startsWith(`${paths.auth.root.path}/`)) return paths.home.path;
  return value;
}

/** The login page, remembering where to return after signing in. */
export function loginHref(returnUrl?: string): string {
  const target = returnUrl && returnUrl !== paths.home.path ? safeReturnUrl(returnUrl) : undefined;
  return withQuery(paths.auth.login.getHref(), {
    [RETURN_URL_PARAM]: target === paths.home.path ? undefined : target,
  });
}
