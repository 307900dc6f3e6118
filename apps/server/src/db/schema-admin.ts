import type { ColumnType } from 'kysely';
import type { NullableTimestamp } from './schema-columns';

/** A nullable column that inserts may leave out. */
type Optional<T> = ColumnType<T | null, T | null | undefined, T | null>;

/** The operator console's columns on existing tables (migration 0012_admin.sql). */
declare module './schema' {
  interface AccountsTable {
    locked_at: NullableTimestamp;
    locked_reason: Optional<string>;
    max_per_second: Optional<number>;
    daily_cap: Optional<number>;
    allowed_countries: Optional<string[]>;
  }
  interface AuditLogTable {
    actor_user_id: Optional<string>;
    resource_type: Optional<string>;
    resource_id: Optional<string>;
  }
}

export interface AdminTables {
  worker_heartbeats: {
    worker_id: string;
    role: string;
    started_at: ColumnType<Date, Date | string, Date | string>;
    heartbeat_at: ColumnType<Date, Date | string, Date | string>;
    status: ColumnType<unknown, string, string>;
  };
  smsc_connection_controls: {
    name: string;
    paused: boolean;
    reason: string | null;
    updated_by: string | null;
    updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
  };
}
