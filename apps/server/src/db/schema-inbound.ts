import type { Generated } from 'kysely';
import type { Timestamp } from './schema-columns';

export interface InboundMessagesTable {
  id: Generated<string>;
  account_id: string | null;
  sender: string;
  recipient: string;
  text: string;
  parts: Generated<number>;
  connection: string;
  keyword: string | null;
  received_at: Timestamp;
}

export type SuppressionReason = 'stop_keyword' | 'manual';

export interface SuppressionsTable {
  id: Generated<string>;
  account_id: string;
  phone: string;
  reason: SuppressionReason;
  inbound_message_id: string | null;
  created_at: Generated<Date>;
}

export interface InboundTables {
  inbound_messages: InboundMessagesTable;
  suppressions: SuppressionsTable;
}
