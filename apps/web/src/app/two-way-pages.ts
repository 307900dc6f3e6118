/**
 * The two-way messaging pages (issue 40) behind one tiny chunk, as the operator console's are
 * (features/admin/pages/admin-pages.ts): the eager bundle names this module once instead of a list
 * of chunks to preload per page, which kept the cold dashboard within its 200 KB budget.
 */
const pages = {
  conversations: () => import('@/features/conversations/pages/conversations-page'),
  numbers: () => import('@/features/numbers/pages/numbers-page'),
};

export type TwoWayPageName = keyof typeof pages;

export const loadTwoWayPage = (name: TwoWayPageName) => pages[name]();
