import { useQuery } from '@tanstack/react-query';
import { MESSAGING_API, type RatePlanDto } from '@wren/contracts';
import { http } from '@/lib/http/client';

export const pricingQueryKey = ['pricing'] as const;

/** The account's rate plan: price per segment by destination prefix. */
export async function getPricing(): Promise<RatePlanDto> {
  const { data } = await http.get<RatePlanDto>(MESSAGING_API.pricing);
  return data;
}

export const usePricing = () =>
  useQuery({ queryKey: pricingQueryKey, queryFn: getPricing, staleTime: 5 * 60_000 });
