import type { CampaignIssue, PreviewRow, SmsEncoding } from '@wren/contracts';
import type { Db } from '../../platform/db';
import type { FilterSuppressed } from '../inbound/inbound.service';
import type { PricingService } from '../pricing/pricing.service';

/** The separator of a personalised row's values in campaign_recipients.vals. */
export const VALUE_SEPARATOR = '\u001f';

export interface ScanSource {
  kind: 'bulk' | 'personalised';
  accountId: string;
  text: string;
  groupIds: string[];
  numbers: string;
  uploadId?: string;
  phoneColumn?: string;
  /** Resend: the failed messages of this campaign (each with its own text). */
  resendOf?: string;
  /** Tracked short links: each URL counts (and previews) as a short link (contracts' links.ts). */
  trackLinks?: boolean;
}

/** One recipient that will be sent to. */
export interface Recipient {
  /** E.164 digits as a number (15 digits at most: exact in a double). */
  phone: number;
  priceMinor: number;
  segments: number;
  /** Filled per recipient (personalised, or placeholders in the text): the columns' values joined by VALUE_SEPARATOR. */
  vals: string | null;
}

export interface ScanResult {
  recipients: number;
  invalid: number;
  duplicates: number;
  suppressed: number;
  /** Σ price of one segment over the recipients. */
  perSegmentMinor: number;
  costMinor: number;
  currency: string;
  /** Bulk: the text's; personalised: the most of any row. */
  segments: number;
  encoding: SmsEncoding;
  characters: number;
  /** The template's columns, in the order of each recipient's values. */
  columns: string[];
  issues: CampaignIssue[];
  preview: PreviewRow[];
  /** Recipients sent a placeholder empty (no value for it), by placeholder. */
  missing: Map<string, number>;
}

/** What a scan reads with: the database (or a transaction), prices and the suppression list. */
export interface ScanDeps {
  db: Db;
  pricing: PricingService;
  filterSuppressed?: FilterSuppressed;
  defaultCountry: string;
  /** Where tracked short links point (config.linkBase). */
  linkBase: string;
}
