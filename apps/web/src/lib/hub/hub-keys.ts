import type {
  DeliveryStatusSummary,
  GroupDto,
  HubBalance,
  PerformanceData,
  SenderIdDto,
  TemplateDto,
} from '@wren/contracts';

/** The hub's live data sets (SPEC.md §3) as TanStack Query keys; the hub sets them on connect. */
export const hubKeys = {
  all: ['hub'] as const,
  balance: ['hub', 'balance'] as const,
  deliveryStatus: ['hub', 'delivery-status'] as const,
  performance: ['hub', 'performance'] as const,
  senderIds: ['hub', 'sender-ids'] as const,
  templates: ['hub', 'templates'] as const,
  groups: ['hub', 'groups'] as const,
  /** The last BulkSmsUpdated: which campaign changed, and a number that rises with each push. */
  bulkSmsChanged: ['hub', 'bulk-sms-changed'] as const,
};

/** What each hub key holds. */
export interface HubData {
  balance: HubBalance;
  deliveryStatus: DeliveryStatusSummary;
  performance: PerformanceData;
  senderIds: SenderIdDto[];
  templates: TemplateDto[];
  groups: GroupDto[];
  bulkSmsChanged: BulkSmsChanged;
}

export interface BulkSmsChanged {
  /** The campaign the push named (a UUID in this server's contract). */
  campaignId: string;
  /** An integer that rises with every BulkSmsUpdated, so the same campaign twice still changes it. */
  seq: number;
}

/**
 * The HTTP query-key roots of other features that a push makes stale (invalidated by prefix).
 * Features put their list keys under these roots: ['sender-ids', 'list'], ['templates', 'list'], …
 */
export const liveQueryRoots = {
  groups: ['groups'] as const,
  senderIds: ['sender-ids'] as const,
  templates: ['templates'] as const,
  balance: ['balance'] as const,
  smsLog: ['sms-log'] as const,
  smsMessage: ['sms-message'] as const,
  dashboard: ['dashboard'] as const,
  inbound: ['inbound'] as const,
  suppressions: ['suppressions'] as const,
  campaign: (campaignId: string) => ['campaign', campaignId] as const,
};
