import type { ColumnType, Generated, JSONColumnType } from 'kysely';
import type { NullableTimestamp, Timestamp } from './schema-columns';

export interface SenderIdsTable {
  id: Generated<string>;
  account_id: string;
  value: string;
  kind: 'alphanumeric' | 'numeric';
  purpose: string;
  sample_message: string;
  status: Generated<'requested' | 'approved' | 'rejected'>;
  reason: string | null;
  is_default: Generated<boolean>;
  decided_at: NullableTimestamp;
  decided_by: string | null;
  /** The assigned number this sender ID comes from (0054); removed with the assignment. */
  number_id: Generated<string | null>;
  created_at: Generated<Date>;
  updated_at: Timestamp;
}

export interface ContactGroupsTable {
  id: Generated<string>;
  account_id: string;
  name: string;
  contact_count: Generated<number>;
  created_at: Generated<Date>;
  updated_at: Timestamp;
}

export interface ContactsTable {
  id: Generated<string>;
  account_id: string;
  group_id: string;
  phone: string;
  name: Generated<string>;
  fields: ColumnType<Record<string, string>, string | undefined, string>;
  import_id: string | null;
  created_at: Generated<Date>;
  updated_at: Timestamp;
}

export interface ContactImportOptions {
  delimiter?: string;
  encoding?: string;
  hasHeader: boolean;
}

export interface StoredMapping {
  phone: string | null;
  name: string | null;
  fields: Record<string, string>;
}

export interface ContactImportsTable {
  id: Generated<string>;
  account_id: string;
  group_id: string;
  file_name: string;
  file_type: 'csv' | 'xlsx';
  file_size: number;
  /** The uploaded file, base64; null once imported. */
  file_base64: string | null;
  options: JSONColumnType<ContactImportOptions>;
  columns: JSONColumnType<string[]>;
  suggested_mapping: JSONColumnType<StoredMapping>;
  mapping: JSONColumnType<StoredMapping | null, string | null, string | null>;
  row_count_guess: number;
  status: Generated<'uploaded' | 'running' | 'completed' | 'failed'>;
  processed: Generated<number>;
  inserted: Generated<number>;
  invalid: Generated<number>;
  duplicates: Generated<number>;
  error: string | null;
  created_at: Generated<Date>;
  started_at: NullableTimestamp;
  finished_at: NullableTimestamp;
  heartbeat_at: NullableTimestamp;
  /** The job running the import (migration 0007). */
  runner: string | null;
  /** Runs started; an import that keeps being interrupted fails after a few. */
  attempts: Generated<number>;
}

export interface ContactImportIssuesTable {
  import_id: string;
  row_number: number;
  phone: string;
  name: string;
  reason: string;
}

export interface TemplatesTable {
  id: Generated<string>;
  account_id: string;
  name: string;
  text: string;
  created_at: Generated<Date>;
  updated_at: Timestamp;
}

/** Sender IDs, contact groups, contacts and templates (issue #6). */
export interface DirectoryTables {
  sender_ids: SenderIdsTable;
  contact_groups: ContactGroupsTable;
  contacts: ContactsTable;
  contact_imports: ContactImportsTable;
  contact_import_issues: ContactImportIssuesTable;
  templates: TemplatesTable;
}
