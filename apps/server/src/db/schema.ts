import type { Generated } from 'kysely';

import type { NullableTimestamp, Timestamp } from './schema-columns';

export type { NullableTimestamp, Timestamp };

export interface SchemaMigrationsTable {
  name: string;
  applied_at: Generated<Date>;
}

export interface AccountsTable {
  id: Generated<string>;
  name: string;
  currency: Generated<string>;
  balance_minor: Generated<number>;
  rate_plan_id: string | null;
  created_at: Generated<Date>;
}

export interface UsersTable {
  id: Generated<string>;
  account_id: string;
  username: string;
  name: string;
  email: string;
  phone: string;
  password_hash: string;
  role: Generated<'user' | 'admin'>;
  timezone: Generated<string>;
  locale: Generated<string>;
  failed_logins: Generated<number>;
  locked_until: NullableTimestamp;
  created_at: Generated<Date>;
  updated_at: Timestamp;
}

export interface UserPicturesTable {
  user_id: string;
  content_type: string;
  bytes: Uint8Array;
  updated_at: Timestamp;
}

export interface SessionsTable {
  id: Generated<string>;
  user_id: string;
  ip: string | null;
  user_agent: string | null;
  created_at: Generated<Date>;
  last_used_at: Timestamp;
  revoked_at: NullableTimestamp;
  revoked_reason: string | null;
  /** The account the session acts on (migration 0032); null only for rows from before it. */
  account_id: string | null;
}

/** A user's role in an account (migration 0032). */
export interface AccountMembersTable {
  account_id: string;
  user_id: string;
  role: 'owner' | 'admin' | 'developer' | 'sender' | 'analyst' | 'billing';
  invited_by: string | null;
  created_at: Generated<Date>;
}

/** An invite by email to join an account (migration 0032): single use, expiring. */
export interface AccountInvitesTable {
  id: Generated<string>;
  account_id: string;
  email: string;
  role: AccountMembersTable['role'];
  token_hash: string;
  expires_at: Timestamp;
  accepted_at: NullableTimestamp;
  accepted_by: string | null;
  revoked_at: NullableTimestamp;
  invited_by: string | null;
  created_at: Generated<Date>;
}

export interface RefreshTokensTable {
  id: Generated<string>;
  session_id: string;
  token_hash: string;
  created_at: Generated<Date>;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
}

export interface PasswordResetsTable {
  id: Generated<string>;
  user_id: string;
  token_hash: string;
  created_at: Generated<Date>;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
}

export interface LedgerEntriesTable {
  id: Generated<number>;
  account_id: string;
  amount_minor: number;
  currency: string;
  kind: string;
  reference: string | null;
  note: string | null;
  created_at: Generated<Date>;
}

export interface AuditLogTable {
  id: Generated<number>;
  account_id: string | null;
  user_id: string | null;
  kind: string;
  message: string;
  ip: string | null;
  created_at: Generated<Date>;
}

import type { CampaignTables } from './schema-campaigns';
import type { AdminTables } from './schema-admin';
import type { DirectoryTables } from './schema-directory';
import type { InboundTables } from './schema-inbound';
import type { MessagingTables } from './schema-messaging';
import type { OtpTables } from './schema-otp';
import type { ApiTables } from './schema-api';
import type { TwoFactorTables } from './schema-two-factor';
import type { SubAccountTables } from './schema-sub-accounts';
import type { SmppServerTables } from './schema-smpp-server';
import type { BillingTables } from './schema-billing';
import type { RoutingTables } from './schema-routing';

export interface DB
  extends
    MessagingTables,
    DirectoryTables,
    InboundTables,
    OtpTables,
    ApiTables,
    CampaignTables,
    AdminTables,
    TwoFactorTables,
    SubAccountTables,
    SmppServerTables,
    BillingTables,
    RoutingTables {
  schema_migrations: SchemaMigrationsTable;
  accounts: AccountsTable;
  users: UsersTable;
  user_pictures: UserPicturesTable;
  sessions: SessionsTable;
  account_members: AccountMembersTable;
  account_invites: AccountInvitesTable;
  refresh_tokens: RefreshTokensTable;
  password_resets: PasswordResetsTable;
  ledger_entries: LedgerEntriesTable;
  audit_log: AuditLogTable;
}
