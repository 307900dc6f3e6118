import type { ColumnType, Generated } from 'kysely';
import type { NullableTimestamp, Timestamp } from './schema-columns';

/** A nullable column that inserts may leave out. */
type Optional<T> = ColumnType<T | null, T | null | undefined, T | null>;

/** Self-serve billing (issue 47 item 1, migration 0041). */
export interface BillingTables {
  top_ups: {
    id: Generated<string>;
    account_id: string;
    provider: 'stripe' | 'manual';
    status: ColumnType<
      'pending' | 'paid' | 'approved' | 'rejected' | 'expired',
      'pending' | 'paid' | 'approved' | 'rejected' | 'expired' | undefined
    >;
    amount_minor: number;
    currency: string;
    provider_ref: Optional<string>;
    note: Optional<string>;
    requested_by: Optional<string>;
    decided_by: Optional<string>;
    decision_note: Optional<string>;
    decided_at: NullableTimestamp;
    created_at: Timestamp;
  };
  low_balance_alerts: {
    account_id: string;
    threshold_minor: number;
    armed: Generated<boolean>;
    fired_at: NullableTimestamp;
    updated_at: Timestamp;
  };
  payment_events: {
    provider: string;
    event_id: string;
    type: string;
    top_up_id: Optional<string>;
    outcome: string;
    received_at: Timestamp;
  };
}
