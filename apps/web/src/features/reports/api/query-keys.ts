import type { MessageStatus } from '@wren/contracts';

/** The filters of one SMS log listing, as sent to GET /api/sms/log (empty ones left out). */
export interface SmsLogQueryFilters {
  from?: string;
  to?: string;
  status?: MessageStatus;
  recipient?: string;
  sender?: string;
  text?: string;
  campaignId?: string;
}

/**
 * Query keys of the SMS log, for the real-time hub to invalidate: every listing starts with
 * SMS_LOG_QUERY_ROOT and every message detail with SMS_MESSAGE_QUERY_ROOT.
 */
export const SMS_LOG_QUERY_ROOT = ['sms-log'] as const;
export const SMS_MESSAGE_QUERY_ROOT = ['sms-message'] as const;

export const smsLogQueryKey = (filters: SmsLogQueryFilters) => [...SMS_LOG_QUERY_ROOT, filters] as const;
export const smsMessageQueryKey = (id: string) => [...SMS_MESSAGE_QUERY_ROOT, id] as const;

/** The account balance (shared with the rest of the app); a cancel refunds into it. */
export const BALANCE_QUERY_KEY = ['balance'] as const;
