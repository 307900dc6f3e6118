/**
 * The SMPP accounts API's paths (issue 37), apart from its schemas: a module with zod schemas in
 * the web app's first load keeps zod there too (see sub-accounts-api.ts).
 */
export const SMPP_ACCOUNTS_API = {
  list: '/api/smpp-accounts',
  item: '/api/smpp-accounts/:id',
  rotate: '/api/smpp-accounts/:id/rotate',
  disable: '/api/smpp-accounts/:id/disable',
  enable: '/api/smpp-accounts/:id/enable',
  /** The live binds of one SMPP account, on every API node. */
  binds: '/api/smpp-accounts/:id/binds',
  /** Host, ports and TLS of the SMPP server, for the API pages. */
  server: '/api/smpp-server',
} as const;

export const SMPP_BIND_MODES = ['tx', 'rx', 'trx'] as const;
export type SmppBindMode = (typeof SMPP_BIND_MODES)[number];

export const SMPP_ID_NOTATIONS = ['decimal', 'hex'] as const;
export type SmppIdNotation = (typeof SMPP_ID_NOTATIONS)[number];
