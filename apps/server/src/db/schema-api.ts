import type { ColumnType, Generated } from 'kysely';
import type { NullableTimestamp, Timestamp } from './schema-columns';

export interface ApiKeysTable {
  id: Generated<string>;
  account_id: string;
  created_by: string | null;
  name: string;
  prefix: string;
  secret_hash: Buffer;
  scopes: string[];
  ip_allowlist: Generated<string[]>;
  expires_at: NullableTimestamp;
  rate_limit_per_minute: number | null;
  webhook_url: string | null;
  created_at: Generated<Date>;
  updated_at: Timestamp;
  revoked_at: NullableTimestamp;
  last_used_at: NullableTimestamp;
  last_used_ip: string | null;
}

/** A secret a key had before a rotation (migration 0028). */
export interface ApiKeyRetiredSecretsTable {
  prefix: string;
  api_key_id: string;
  secret_hash: Buffer;
  retired_at: Generated<Date>;
}

export interface ApiKeyUsageTable {
  api_key_id: string;
  hour: Timestamp;
  status_class: number;
  requests: number;
}

export interface ApiKeyErrorsTable {
  api_key_id: string;
  day: ColumnType<string, string, string>;
  code: string;
  requests: number;
}

export interface IdempotencyKeysTable {
  account_id: string;
  key: string;
  method: string;
  path: string;
  request_hash: string;
  response_status: number | null;
  response_body: ColumnType<unknown, string | null, string | null>;
  created_at: Generated<Date>;
}

export interface ApiMessagesTable {
  message_id: string;
  account_id: string;
  api_key_id: string;
  client_ref: string | null;
  callback_url: string | null;
  notify_pending: Generated<boolean>;
  created_at: Generated<Date>;
}

export interface WebhookSettingsTable {
  account_id: string;
  secret: string;
  url: string | null;
  inbound_seen_at: Generated<Date>;
  rotated_at: Timestamp;
}

export type WebhookDeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface WebhookDeliveriesTable {
  id: string;
  account_id: string;
  api_key_id: string | null;
  event_type: string;
  url: string;
  payload: ColumnType<unknown, string, string>;
  status: Generated<WebhookDeliveryStatus>;
  attempts: Generated<number>;
  next_attempt_at: Timestamp;
  give_up_at: Timestamp;
  last_status_code: number | null;
  last_error: string | null;
  last_latency_ms: number | null;
  created_at: Generated<Date>;
  delivered_at: NullableTimestamp;
}

export interface WebhookAttemptsTable {
  id: Generated<string>;
  delivery_id: string;
  attempt: number;
  started_at: Generated<Date>;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
  replay: Generated<boolean>;
}

/** Requests per key per one-minute window, summed over the API nodes (0015). */
export interface ApiKeyRateWindowsTable {
  api_key_id: string;
  window_start: Timestamp;
  requests: number;
}

/** Messages (not sent through /v1) whose final status is due to the account webhook URL (0015). */
export interface WebhookStatusOutboxTable {
  message_id: string;
  account_id: string;
  queued_at: Generated<Date>;
}

export interface ApiTables {
  api_keys: ApiKeysTable;
  api_key_retired_secrets: ApiKeyRetiredSecretsTable;
  api_key_usage: ApiKeyUsageTable;
  api_key_errors: ApiKeyErrorsTable;
  idempotency_keys: IdempotencyKeysTable;
  api_messages: ApiMessagesTable;
  webhook_settings: WebhookSettingsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  api_key_rate_windows: ApiKeyRateWindowsTable;
  webhook_status_outbox: WebhookStatusOutboxTable;
}
