import type { ColumnType, Generated } from 'kysely';
import type { PrefixRate, SendWindow } from '@wren/contracts';
import type { NullableTimestamp } from './schema-columns';

/**
 * A shaped campaign's schedule so far (migration 0048): the instant its batches count from (epoch
 * ms), and per rated prefix when its next message is due and how many were given a time.
 */
export interface ShapingCursor {
  start: number;
  prefixes: Record<string, { at: number; n: number }>;
}

export type CampaignStatus = 'scheduled' | 'sending' | 'paused' | 'completed' | 'canceled';

/** Campaigns of issue #11 (migration 0009). */
export interface CampaignTables {
  bulk_campaigns: {
    campaign_id: string;
    account_id: string;
    user_id: string | null;
    status: CampaignStatus;
    sender: string;
    body: string;
    columns: Generated<string[]>;
    encoding: 'GSM-7' | 'UCS-2';
    segments: number;
    recipients: number;
    invalid: Generated<number>;
    duplicates: Generated<number>;
    suppressed: Generated<number>;
    next_seq: Generated<number>;
    materialised: Generated<number>;
    cost_minor: ColumnType<number, number | bigint, number | bigint>;
    currency: string;
    unsent_refund_minor: Generated<number>;
    scheduled_at: NullableTimestamp;
    timezone: string | null;
    rate_per_minute: number | null;
    resend_of: string | null;
    stats: Generated<Record<string, number>>;
    stats_at: NullableTimestamp;
    started_at: NullableTimestamp;
    finished_at: NullableTimestamp;
    paced_at: NullableTimestamp;
    /** Tracked links (migration 0040): the link base the campaign was accepted with, or null. */
    link_base: Generated<string | null>;
    link_clicks: Generated<number>;
    link_unique_clicks: Generated<number>;
    /** Send window (migration 0044): the campaign's, in its recipients' local time; null: any hour. */
    send_window: ColumnType<SendWindow | null, string | null | undefined, string | null>;
    /** Delivery shaping (migration 0048): batches of batch_size, a pause between; rates per prefix. */
    batch_size: Generated<number | null>;
    batch_pause_seconds: Generated<number | null>;
    prefix_rates: ColumnType<PrefixRate[] | null, string | null | undefined, string | null>;
    prefix_counts: ColumnType<Record<string, number> | null, string | null | undefined, string | null>;
    shaping: ColumnType<ShapingCursor | null, string | null | undefined, string | null>;
    created_at: Generated<Date>;
    updated_at: Generated<Date>;
  };
  /** The account's default send window (migration 0044). */
  account_send_windows: {
    account_id: string;
    send_window: ColumnType<SendWindow | null, string | null, string | null>;
    apply_to_single: Generated<boolean>;
    updated_at: Generated<Date>;
  };
  short_links: {
    code: string;
    account_id: string;
    campaign_id: string;
    message_id: string;
    url: string;
    clicks: Generated<number>;
    first_clicked_at: NullableTimestamp;
    created_at: Generated<Date>;
    expires_at: Date;
  };
  link_clicks: {
    id: Generated<string>;
    code: string;
    campaign_id: string;
    clicked_at: Date;
    device: string;
    country: string | null;
  };
  campaign_recipients: {
    campaign_id: string;
    seq: number;
    phone: ColumnType<string, string | number | bigint, string | number | bigint>;
    price_minor: number;
    segments: number;
    vals: string | null;
  };
  campaign_uploads: {
    id: Generated<string>;
    account_id: string;
    file_name: string;
    file_type: 'csv' | 'xlsx';
    delimiter: string | null;
    encoding: string | null;
    has_header: boolean;
    columns: string[];
    row_count_guess: number;
    file: Uint8Array;
    created_at: Generated<Date>;
  };
}
