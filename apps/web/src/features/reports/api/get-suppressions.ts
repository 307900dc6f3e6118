import { useQuery } from '@tanstack/react-query';
import { INBOUND_API, type SuppressionList } from '@wren/contracts';
import { http } from '@/lib/http/client';
import { SUPPRESSIONS_QUERY_KEY } from './inbound-keys';

/** The account's suppressed numbers (opted out by keyword or added by hand), newest first. */
export async function getSuppressions(): Promise<SuppressionList> {
  const { data } = await http.get<SuppressionList>(INBOUND_API.suppressions, { noOverlay: true });
  return data;
}

export function useSuppressions() {
  return useQuery({ queryKey: SUPPRESSIONS_QUERY_KEY, queryFn: getSuppressions });
}
