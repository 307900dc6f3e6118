/**
 * The developer pages (OTP services, API keys, SMPP accounts and their docs) behind one tiny chunk,
 * as the operator console's are (features/admin/pages/admin-pages.ts): the eager bundle names this
 * module once instead of a list of chunks to preload for each of its pages, which kept the cold
 * dashboard within its 200 KB budget. They load one short step later.
 */
const pages = {
  otpServices: () => import('@/features/otp/pages/otp-services-page'),
  otpServiceCreate: () => import('@/features/otp/pages/otp-service-create-page'),
  otpDoc: () => import('@/features/otp/pages/otp-doc-page'),
  otpDocItem: () => import('@/features/otp/pages/otp-doc-item-page'),
  otpServiceEdit: () => import('@/features/otp/pages/otp-service-edit-page'),
  otpServiceView: () => import('@/features/otp/pages/otp-service-view-page'),
  otpServiceTest: () => import('@/features/otp/pages/otp-service-test-page'),
  apiList: () => import('@/features/api-keys/pages/api-list-page'),
  apiCreate: () => import('@/features/api-keys/pages/api-create-page'),
  apiDoc: () => import('@/features/api-keys/pages/api-doc-page'),
  apiEdit: () => import('@/features/api-keys/pages/api-edit-page'),
  apiView: () => import('@/features/api-keys/pages/api-view-page'),
  apiReport: () => import('@/features/api-keys/pages/api-report-page'),
  smppList: () => import('@/features/smpp-accounts/pages/smpp-list-page'),
  smppCreate: () => import('@/features/smpp-accounts/pages/smpp-create-page'),
  smppView: () => import('@/features/smpp-accounts/pages/smpp-view-page'),
  smppDoc: () => import('@/features/smpp-accounts/pages/smpp-doc-page'),
};

export type DeveloperPageName = keyof typeof pages;

export const loadDeveloperPage = (name: DeveloperPageName) => pages[name]();
