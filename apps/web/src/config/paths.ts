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

function route<P extends string>(path: P, title: string): AppPath<P> {
  return { path, title, getHref: (...values) => buildPath(path, values) };
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
    single: route('/sms/single', 'Single SMS'),
    bulk: route('/sms/bulk', 'Bulk SMS'),
    personalised: route('/sms/personalised-bulk', 'Personalised SMS'),
  },
  reports: {
    smsLog: route('/reports/sms-log', 'SMS log'),
    campaigns: route('/reports/bulk-sms-report', 'Campaign report'),
    scheduled: route('/reports/scheduled-sms', 'Scheduled SMS'),
    campaignDetail: route('/reports/bulk-sms-detail/:id', 'Campaign detail'),
  },
  profile: {
    view: route('/profile', 'Profile'),
    update: route('/profile/update', 'Update profile'),
    password: route('/profile/password', 'Change password'),
    apiDetail: route('/profile/api-detail', 'API detail'),
    apiDoc: route('/profile/api-doc', 'API documentation'),
  },
  groups: {
    list: route('/groups', 'Contact groups'),
    contacts: route('/groups/:id/contacts', 'Contacts'),
  },
  senderIds: route('/sender-id', 'Sender IDs'),
  /** Settings → Team: members, roles and invites (issue 39). */
  team: route('/settings/team', 'Team'),
  /** An emailed invite's link (public: a new or a signed-in user accepts it). */
  invite: route('/invite/:token', 'Join an account'),
  templates: route('/templates', 'Saved messages'),
  otp: {
    list: route('/otp-service', 'OTP services'),
    create: route('/otp-service/create', 'Create OTP service'),
    doc: route('/otp-service/doc', 'OTP documentation'),
    docItem: route('/otp-service/doc/:id', 'OTP service documentation'),
    edit: route('/otp-service/:id/edit', 'Edit OTP service'),
    view: route('/otp-service/:id/view', 'OTP service'),
    test: route('/otp-service/:id/test', 'Test OTP service'),
  },
  api: {
    list: route('/api', 'SMS & OTP API'),
    create: route('/api/create', 'Create API key'),
    doc: route('/api/doc', 'API documentation'),
    edit: route('/api/:id/edit', 'Edit API key'),
    view: route('/api/:id/view', 'API key'),
    report: route('/api/:id/report', 'API usage report'),
  },
  /** The operator console (issue #16): admins only. */
  admin: {
    accounts: route('/admin/accounts', 'Accounts'),
    account: route('/admin/accounts/:id', 'Account'),
    ratePlans: route('/admin/rate-plans', 'Rate plans'),
    senderIds: route('/admin/sender-ids', 'Sender ID approvals'),
    audit: route('/admin/audit', 'Audit log'),
    system: route('/admin/system', 'System status'),
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
