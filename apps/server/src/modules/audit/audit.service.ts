/**
 * The audit module's public face: every other module writes and reads the audit log through this
 * file, never through audit.repository.ts (docs/architecture.md §3, checked by
 * scripts/check-imports.mjs). Its users: `recordAudit` by every module that audits what a user or
 * an operator did (admin, auth, contacts' imports, sender-ids, users); `listRecent` by the user's
 * own activity page (users.routes); `search` by the operators' audit log (admin-audit.ts).
 */
export { listRecent, recordAudit, search, type AuditFilter, type AuditInput } from './audit.repository';
