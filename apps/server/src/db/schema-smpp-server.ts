import type { ColumnType, Generated } from 'kysely';
import type { NullableTimestamp, Timestamp } from './schema-columns';

/** The SMPP server for customers (issue 37, migration 0037). */
export interface SmppServerTables {
  smpp_accounts: {
    id: Generated<string>;
    account_id: string;
    created_by: string | null;
    system_id: string;
    name: string;
    password_hash: string;
    ip_allowlist: Generated<string[]>;
    max_binds: Generated<number>;
    bind_modes: Generated<string[]>;
    throughput_per_second: Generated<number>;
    window_size: Generated<number>;
    default_sender: string | null;
    id_notation: Generated<'decimal' | 'hex'>;
    expired_count: Generated<number>;
    created_at: Generated<Date>;
    updated_at: Timestamp;
    password_rotated_at: NullableTimestamp;
    disabled_at: NullableTimestamp;
    last_bind_at: NullableTimestamp;
    last_bind_ip: string | null;
  };
  smpp_messages: {
    smpp_id: number;
    smpp_account_id: string;
    message_id: string;
    registered_delivery: number;
    created_at: Generated<Date>;
  };
  smpp_outbox: {
    id: Generated<number>;
    smpp_account_id: string;
    kind: 'receipt' | 'mo';
    smpp_id: number | null;
    payload: ColumnType<Record<string, unknown>, string, string>;
    attempts: Generated<number>;
    claimed_until: NullableTimestamp;
    created_at: Generated<Date>;
  };
  smpp_parts: {
    smpp_account_id: string;
    concat_key: string;
    seq: number;
    total: number;
    smpp_id: number;
    text: string;
    registered_delivery: number;
    created_at: Generated<Date>;
  };
  smpp_binds: {
    id: string;
    smpp_account_id: string;
    node: string;
    mode: 'tx' | 'rx' | 'trx';
    remote_address: string;
    tls: boolean;
    bound_at: Generated<Date>;
    window_in_use: Generated<number>;
    submits_per_second: Generated<number>;
    seen_at: Generated<Date>;
  };
}
