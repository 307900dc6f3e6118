import type { ColumnType, Generated } from 'kysely';
import type { NullableTimestamp, Timestamp } from './schema-columns';

/** Rate plans, messages, campaigns and delivery receipts (issue #4). */
export interface MessagingTables {
  rate_plans: {
    id: Generated<string>;
    name: string;
    currency: string;
    is_default: Generated<boolean>;
    created_at: Generated<Date>;
  };
  rate_plan_prices: { plan_id: string; prefix: string; country: string | null; price_minor: number };
  campaigns: {
    id: Generated<string>;
    account_id: string;
    kind: 'single' | 'bulk' | 'personalised' | 'api' | 'otp';
    name: string;
    created_at: Generated<Date>;
  };
  messages: MessagesTable;
  message_parts: {
    connection: string;
    smsc_key: string;
    message_id: string;
    part: number;
    stat: string | null;
    err: string | null;
    /** The raw final receipt that settled the part (0026). */
    raw: string | null;
    created_at: Generated<Date>;
  };
  /** Routing decisions, shared by the messages that name them (0053; messages/route-decisions.ts). */
  route_decisions: {
    id: Generated<number>;
    key: string;
    connection: string;
    route_name: string;
    strategy: string;
    /** bigint: pg answers it as text. */
    cost_micros: ColumnType<string, number, number>;
    reason: string;
    created_at: Generated<Date>;
  };
  message_events: {
    id: Generated<number>;
    message_id: string;
    status: string;
    detail: string | null;
    raw: string | null;
    created_at: Generated<Date>;
  };
  parked_receipts: {
    id: Generated<number>;
    connection: string;
    smsc_keys: string[];
    stat: string;
    err: string | null;
    done_at: NullableTimestamp;
    /** The receipt's `submit date:` (0031); null when it had none. */
    submit_at: NullableTimestamp;
    raw: string;
    attempts: Generated<number>;
    matched_at: NullableTimestamp;
    reason: string | null;
    created_at: Generated<Date>;
  };
  send_queue: {
    message_id: string;
    priority: number;
    due_at: Timestamp;
    scheduled: Generated<boolean>;
    validity_until: Timestamp;
    attempts: Generated<number>;
    leased_by: string | null;
    lease_until: NullableTimestamp;
    /** The campaign of a bulk message (0019: the materialiser counts a campaign's waiting rows by it). */
    campaign_id: string | null;
  };
  /** The uncommon final statuses of messages, for the SMS log's status filter (0008, filled by trigger). */
  message_outcomes: { account_id: string; status: string; created_at: Date; id: string };
  smsc_id_notations: {
    connection: string;
    submit_radix: 'string' | 'dec' | 'hex';
    receipt_radix: 'string' | 'dec' | 'hex';
    evidence: string;
    decided_at: Generated<Date>;
  };
}

export interface MessagesTable {
  id: Generated<string>;
  account_id: string;
  campaign_id: string | null;
  user_id: string | null;
  recipient: string;
  sender: string;
  body: string;
  encoding: 'GSM-7' | 'UCS-2';
  segments: number;
  price_minor: number;
  currency: string;
  status: string;
  priority: Generated<number>;
  attempts: Generated<number>;
  next_attempt_at: ColumnType<Date, Date | string | undefined, Date | string>;
  lease_until: NullableTimestamp;
  leased_by: string | null;
  scheduled_at: NullableTimestamp;
  timezone: string | null;
  validity_until: Timestamp;
  connection: string | null;
  /** The routing decision a route sent it by (route_decisions.id, 0053); null: no route. */
  route_decision: Generated<number | null>;
  parts_done: Generated<number>;
  smsc_stat: string | null;
  smsc_err: string | null;
  receipt_raw: Generated<string | null>;
  receipt_due_at: Generated<Date | null>;
  error: string | null;
  refunded: Generated<boolean>;
  client_ref: string | null;
  created_at: Generated<Date>;
  submitted_at: NullableTimestamp;
  done_at: NullableTimestamp;
}
