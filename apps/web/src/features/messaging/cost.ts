import type { RatePlanDto } from '@wren/contracts';

type Price = RatePlanDto['prices'][number];

/** The price row for a number: the longest matching prefix ('' matches every number). */
export function priceFor(e164: string, plan: RatePlanDto): Price | null {
  let best: Price | null = null;
  for (const price of plan.prices) {
    if (e164.startsWith(price.prefix) && (!best || price.prefix.length > best.prefix.length)) best = price;
  }
  return best;
}

export interface CostLine {
  prefix: string;
  country: string | null;
  recipients: number;
  perSegmentMinor: number;
  totalMinor: number;
}

export interface CostEstimate {
  currency: string;
  totalMinor: number;
  /** One line per price row used, most expensive first. */
  lines: CostLine[];
  /** Numbers no price row matches (the server would charge nothing for them). */
  unpriced: string[];
}

/** What a send costs: per recipient, the per-segment price of its destination × segments. */
export function estimateCost(recipients: string[], segments: number, plan: RatePlanDto): CostEstimate {
  const lines = new Map<string, CostLine>();
  const unpriced: string[] = [];
  for (const to of recipients) {
    const price = priceFor(to, plan);
    if (!price) {
      unpriced.push(to);
      continue;
    }
    const line = lines.get(price.prefix) ?? {
      prefix: price.prefix,
      country: price.country,
      recipients: 0,
      perSegmentMinor: price.priceMinor,
      totalMinor: 0,
    };
    line.recipients += 1;
    line.totalMinor += price.priceMinor * segments;
    lines.set(price.prefix, line);
  }
  const sorted = [...lines.values()].sort((a, b) => b.totalMinor - a.totalMinor);
  return {
    currency: plan.currency,
    totalMinor: sorted.reduce((sum, l) => sum + l.totalMinor, 0),
    lines: sorted,
    unpriced,
  };
}
