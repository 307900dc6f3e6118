import { analyseSmsText, CAMPAIGN_PREVIEW_ROWS } from '@wren/contracts';
import type { Candidate } from './recipient-sources';
import type { Recipient, ScanDeps, ScanResult } from './scan-types';

/** A checked, new recipient waiting for its batch's screen and quote. */
export interface ScanEntry {
  c: Candidate;
  e164: string;
  phone: number;
  text: string | null;
  info: ReturnType<typeof analyseSmsText> | null;
  vals: string | null;
  /** Placeholders it has no value for (sent empty). */
  missing: string[];
}

/**
 * Screens a batch against the account's suppression list (an opted-out number is counted and
 * reported) and prices the rest in one quote, adding to `result`'s totals, sizes and preview.
 * Returns the batch's recipients (none: every number opted out).
 */
export async function screenAndPrice(
  deps: ScanDeps,
  s: {
    accountId: string;
    /** Each recipient's own text (personalised, or placeholders filled): previewed, sized per recipient. */
    filled: boolean;
    bulkInfo: ReturnType<typeof analyseSmsText>;
    result: ScanResult;
    issue: (row: number | null, value: string, reason: string) => void;
  },
  current: ScanEntry[],
): Promise<Recipient[]> {
  const { filled, bulkInfo, result, issue } = s;
  let allowed = current;
  if (deps.filterSuppressed) {
    const screened = await deps.filterSuppressed(
      s.accountId,
      current.map((b) => b.e164),
      deps.db,
    );
    if (screened.suppressed.length) {
      const out = new Set(screened.suppressed.map((s) => s.recipient));
      allowed = current.filter((b) => !out.has(b.e164));
      for (const s of screened.suppressed) {
        result.suppressed += 1;
        const c = current.find((b) => b.e164 === s.recipient);
        issue(c?.c.row ?? null, s.recipient, `Opted out (${s.reason.replace(/_/g, ' ')})`);
      }
    }
  }
  if (allowed.length === 0) return [];
  const quote = await deps.pricing.quote(
    s.accountId,
    allowed.map((b) => b.e164),
    1,
    deps.db,
  );
  result.currency = quote.currency;
  const out: Recipient[] = allowed.map((b, i) => {
    const per = quote.prices[i] ?? 0;
    const info = b.info ?? bulkInfo;
    if (b.text !== null) {
      if (info.segments > result.segments) result.segments = info.segments;
      if (info.encoding === 'UCS-2') result.encoding = 'UCS-2';
      if (info.characters > result.characters) result.characters = info.characters;
    }
    const price = per * info.segments;
    result.perSegmentMinor += per;
    result.costMinor += price;
    for (const m of b.missing) result.missing.set(m, (result.missing.get(m) ?? 0) + 1);
    if (result.preview.length < CAMPAIGN_PREVIEW_ROWS && filled) {
      result.preview.push({
        row: b.c.row ?? 0,
        recipient: b.e164,
        text: b.text ?? '',
        segments: info.segments,
        encoding: info.encoding,
        costMinor: price,
        problem: null,
        ...(b.missing.length ? { missing: b.missing } : {}),
      });
    }
    return { phone: b.phone, priceMinor: price, segments: info.segments, vals: b.vals };
  });
  return out;
}
