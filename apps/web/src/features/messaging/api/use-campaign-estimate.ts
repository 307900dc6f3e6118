import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { CampaignSourceInput } from '@wren/contracts';
import { estimateCampaign } from '@/features/campaigns';

/**
 * The server's estimate of a campaign's recipients and cost (nothing stored), 400 ms after the
 * source last changed, once `ready` says the source is worth estimating; the previous figures stay up while the next ones load.
 */
export function useCampaignEstimate(source: CampaignSourceInput, ready: (s: CampaignSourceInput) => boolean) {
  const [debounced] = useDebouncedValue(source, 400);
  // Asked of the source as it will be sent (the debounced one), never of the form's newer state.
  const enabled = ready(debounced) && ready(source);
  return useQuery({
    queryKey: ['campaign-estimate', debounced],
    queryFn: ({ signal }) => estimateCampaign(debounced, signal),
    enabled,
    placeholderData: keepPreviousData,
    retry: false,
    staleTime: 30_000,
  });
}
