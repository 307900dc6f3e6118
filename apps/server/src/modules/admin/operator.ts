/**
 * The operator acting, for the audit log. Its own file: admin.service.ts composes admin-audit.ts
 * and admin-ledger.ts, which take it too, so it cannot live in admin.service.ts without a circle.
 */
export interface Operator {
  userId: string;
  accountId: string;
  ip: string | null;
}
