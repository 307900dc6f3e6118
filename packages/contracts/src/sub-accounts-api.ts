/**
 * The sub-accounts API's paths (issue 39 item 4), apart from its schemas: the signed-in layout asks
 * for the account's status on every page, and a module with zod schemas in the first load keeps
 * zod there too (the web build places whole modules; cold /dashboard went 195 -> 224 KB gzip).
 */
export const SUB_ACCOUNTS_API = {
  list: '/api/sub-accounts',
  one: '/api/sub-accounts/:id',
  transfers: '/api/sub-accounts/:id/transfers',
  pricing: '/api/sub-accounts/:id/pricing',
  usage: '/api/sub-accounts/:id/usage',
  lock: '/api/sub-accounts/:id/lock',
  /** Any member: whether the account is locked by the account that manages it, and whether it is a child. */
  status: '/api/account/status',
} as const;
