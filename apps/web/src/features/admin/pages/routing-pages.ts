/**
 * The routes and margin pages (issue 38) behind one tiny chunk: the router's eager bundle names
 * this module alone, and its own lazy imports carry the pages' long lists of chunks to preload
 * (the cold dashboard budget is nearly full; apps/web/src/test/bundle-budget.test.ts).
 */
export const routesPage = () => import('./routes-page');
export const marginPage = () => import('./margin-page');
