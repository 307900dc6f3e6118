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

/** Numbers (0054): operators' inventory of long and short codes, assigned to accounts. */
export interface PhoneNumbersTable {
  id: Generated<string>;
  number: string;
  kind: 'long' | 'short';
  country: string;
  connection: string | null;
  monthly_price_minor: number;
  account_id: string | null;
  assigned_at: Date | null;
  paid_until: Date | null;
  past_due_since: Date | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/** Conversations (0055): a thread's summary; its messages are in messages and inbound_messages. */
export interface ConversationsTable {
  id: Generated<string>;
  account_id: string;
  remote: string;
  local: string;
  last_at: Date;
  last_text: string;
  last_direction: 'in' | 'out';
  unread: Generated<number>;
  archived_at: Date | null;
  assigned_user_id: string | null;
  created_at: Generated<Date>;
}

export interface InboundTables {
  conversations: ConversationsTable;
  phone_numbers: PhoneNumbersTable;
  inbound_messages: InboundMessagesTable;
  suppressions: SuppressionsTable;
}
