import type { ColumnType, Generated } from 'kysely';
import type { NullableTimestamp, Timestamp } from './schema-columns';

/** Two-factor sign-in (issue 39 item 3, migration 0033). */
export interface TwoFactorTables {
  user_two_factor: {
    user_id: string;
    /** AES-256-GCM ciphertext (two-factor-crypto.ts); never sent to a client after enrollment. */
    secret_enc: string;
    /** Null while the enrollment waits for its first code. */
    enabled_at: NullableTimestamp;
    /** The TOTP step of the last accepted code (replay guard); bigint, read as a string. */
    last_step: ColumnType<string | null, number | null | undefined, number | null>;
    created_at: Generated<Date>;
  };
  two_factor_recovery_codes: {
    id: Generated<string>;
    user_id: string;
    code_hash: string;
    used_at: NullableTimestamp;
    created_at: Generated<Date>;
  };
  two_factor_devices: {
    id: Generated<string>;
    user_id: string;
    token_hash: string;
    user_agent: string | null;
    expires_at: Timestamp;
    last_used_at: Generated<Date>;
    created_at: Generated<Date>;
  };
  two_factor_challenges: {
    id: Generated<string>;
    user_id: string;
    kind: 'code' | 'enroll';
    token_hash: string;
    /** The account the session opens in (an invite or a switch, migration 0036); null: the default. */
    account_id: string | null;
    expires_at: Timestamp;
    used_at: NullableTimestamp;
    created_at: Generated<Date>;
  };
}

/** The account's requirement (migration 0033). */
declare module './schema' {
  interface AccountsTable {
    /** Every member must sign in with two-factor. */
    require_two_factor: Generated<boolean>;
  }
}
