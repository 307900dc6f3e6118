/**
 * The operator console's pages behind one tiny chunk: the router's eager bundle names this module
 * alone (one import, no list of chunks to preload per page), and its own lazy imports carry each
 * page's list. Admin pages load one short step later; the cold dashboard every user loads stays
 * within its budget (apps/web/build/cold-load.ts).
 */
const pages = {
  accounts: () => import('./accounts-page'),
  account: () => import('./account-detail-page'),
  ratePlans: () => import('./rate-plans-page'),
  senderIds: () => import('./sender-id-approvals-page'),
  audit: () => import('./audit-page'),
  system: () => import('./system-page'),
  topUps: () => import('./top-ups-page'),
  routes: () => import('./routes-page'),
  connections: () => import('./connections-page'),
  numbers: () => import('./numbers-page'),
  margin: () => import('./margin-page'),
};

export type AdminPageName = keyof typeof pages;

export const loadAdminPage = (name: AdminPageName) => pages[name]();
