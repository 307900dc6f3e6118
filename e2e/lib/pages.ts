/** Every signed-in page of SPEC.md §2 (ids filled in), with a file-safe name for screenshots. */
export const APP_PAGES = [
  '/dashboard',
  '/sms/single',
  '/sms/bulk',
  '/sms/personalised-bulk',
  '/reports/sms-log',
  '/reports/bulk-sms-report',
  '/reports/scheduled-sms',
  '/reports/bulk-sms-detail/12',
  '/profile',
  '/profile/update',
  '/profile/password',
  '/profile/api-detail',
  '/profile/api-doc',
  '/groups',
  '/groups/12/contacts',
  '/sender-id',
  '/templates',
  '/otp-service',
  '/otp-service/create',
  '/otp-service/doc',
  '/otp-service/doc/12',
  '/otp-service/12/edit',
  '/otp-service/12/view',
  '/otp-service/12/test',
  '/api',
  '/api/create',
  '/api/doc',
  '/api/12/edit',
  '/api/12/view',
  '/api/12/report',
  '/api/smpp',
  '/api/smpp/create',
  '/api/smpp/12',
  '/api/doc/smpp',
  '/billing/statements',
  '/billing/balance',
  '/billing/prices',
  '/billing/ledger',
  '/settings/team',
  '/settings/sub-accounts',
  '/settings/sub-accounts/12',
  '/settings/send-window',
] as const;

/** The visitor pages under /auth. */
export const AUTH_PAGES = [
  '/auth/login',
  '/auth/register',
  '/auth/forgot-password',
  '/auth/reset-password?token=example',
  '/auth/reset-password',
  '/auth/confirm-registration',
] as const;

export const fileName = (path: string) =>
  path
    .replace(/^\//, '')
    .replace(/[/?=]+/g, '-')
    .replace(/-+$/, '') || 'root';
