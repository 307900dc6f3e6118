/** The inbox's filters, as sent to GET /api/inbound (empty ones left out). */
export interface InboundQueryFilters {
  from?: string;
  text?: string;
  since?: string;
  until?: string;
}

/**
 * Query keys of the inbox and the suppression list. The hub's InboundSmsReceived push invalidates
 * both roots (lib/hub liveQueryRoots.inbound and .suppressions).
 */
export const INBOUND_QUERY_ROOT = ['inbound'] as const;
export const SUPPRESSIONS_QUERY_KEY = ['suppressions', 'list'] as const;

export const inboundQueryKey = (filters: InboundQueryFilters) => [...INBOUND_QUERY_ROOT, filters] as const;
