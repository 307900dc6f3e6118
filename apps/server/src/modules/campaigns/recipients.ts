import {
  analyseSmsText,
  CAMPAIGN_ISSUE_SAMPLE,
  CAMPAIGN_PREVIEW_ROWS,
  ErrorCode,
  type CampaignIssue,
} from '@wren/contracts';
import { AppError, FieldError } from '../../platform/errors';
import { withTightHeapGrowth } from '../../platform/heap-growth';
import * as repo from './campaigns.repository';
import { PhoneSet } from './phone-set';
import { checkCandidate } from './recipient-check';
import { screenAndPrice, type ScanEntry } from './recipient-pricing';
import { candidateSources } from './recipient-sources';
import { scanLayout } from './scan-layout';
import type { Recipient, ScanDeps, ScanResult, ScanSource } from './scan-types';

/** Recipients screened and priced together (one suppression query, one quote). */
export const SCAN_BATCH = 5000;

/**
 * Reads a campaign's recipients from all its sources, normalised to E.164, de-duplicated across
 * sources, screened against the suppression list and priced, and hands them to `sink` in batches
 * (memory holds one batch and the set of numbers seen, never the file's rows). Bad input of the
 * issue is a 4xx: a placeholder without a column, a file without the phone column, no valid number.
 */
export function scanRecipients(...args: Parameters<typeof scan>): Promise<ScanResult> {
  // A million rows make hundreds of megabytes of short-lived objects (platform/heap-growth.ts).
  return withTightHeapGrowth(() => scan(...args));
}

async function scan(
  deps: ScanDeps,
  src: ScanSource,
  sink?: (batch: Recipient[]) => Promise<void>,
  onIssue?: (issue: CampaignIssue) => void,
): Promise<ScanResult> {
  const { db } = deps;
  const personalised = src.kind === 'personalised';
  const upload = src.uploadId ? await repo.findUploadInfo(db, src.accountId, src.uploadId) : undefined;
  if (src.uploadId && !upload) {
    throw new FieldError({ uploadId: ['The uploaded file is gone; upload it again'] });
  }
  if (personalised && !upload && !src.resendOf) {
    throw new FieldError({ uploadId: ['Upload a CSV or XLSX file with the recipients and their values'] });
  }
  const linkBase = src.trackLinks ? deps.linkBase : null;
  const { phoneIndex, columns, columnIndex, bulkInfo, pasted } = scanLayout(src, upload, linkBase);

  const seen = new PhoneSet();
  const result: ScanResult = {
    recipients: 0,
    invalid: 0,
    duplicates: 0,
    suppressed: 0,
    perSegmentMinor: 0,
    costMinor: 0,
    currency: 'USD',
    segments: personalised ? 1 : bulkInfo.segments,
    encoding: personalised ? 'GSM-7' : bulkInfo.encoding,
    characters: personalised ? 0 : bulkInfo.characters,
    columns,
    issues: [],
    preview: [],
  };
  const issue = (row: number | null, value: string, reason: string) => {
    if (result.issues.length < CAMPAIGN_ISSUE_SAMPLE) result.issues.push({ row, value, reason });
    onIssue?.({ row, value, reason });
  };

  let batch: ScanEntry[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    const current = batch;
    batch = [];
    const out = await screenAndPrice(
      deps,
      { accountId: src.accountId, personalised, bulkInfo, result, issue },
      current,
    );
    if (out.length === 0) return;
    result.recipients += out.length;
    await sink?.(out);
  };

  const sources = candidateSources(db, src, pasted, upload ? { info: upload, phoneIndex } : undefined);
  const template = {
    personalised,
    text: src.text,
    columns,
    columnIndex,
    defaultCountry: deps.defaultCountry,
    linkBase,
  };

  for (const source of sources) {
    for await (const candidates of source) {
      for (const c of candidates) {
        const { raw, e164, text, vals, problem, info: checked } = checkCandidate(c, template);
        let info = checked;
        if (problem) {
          result.invalid += 1;
          issue(c.row, raw, problem);
          if (personalised && result.preview.length < CAMPAIGN_PREVIEW_ROWS) {
            const shown = info ?? analyseSmsText(text ?? '');
            result.preview.push({
              row: c.row ?? 0,
              recipient: e164,
              text: text ?? '',
              segments: shown.segments,
              encoding: shown.encoding,
              costMinor: 0,
              problem,
            });
          }
          continue;
        }
        const phone = Number(e164!.slice(1));
        if (!seen.add(phone)) {
          result.duplicates += 1;
          onIssue?.({ row: c.row, value: e164!, reason: 'Duplicate (already in the list)' });
          continue;
        }
        if (text !== null && !info) info = analyseSmsText(text);
        batch.push({ c, e164: e164!, phone, text, info, vals });
        if (batch.length >= SCAN_BATCH) await flush();
      }
    }
  }
  await flush();
  result.preview.sort((a, b) => a.row - b.row);
  if (result.recipients === 0) {
    const why =
      result.invalid + result.suppressed + result.duplicates === 0
        ? 'Add recipients: choose a group, paste numbers or upload a file'
        : result.suppressed > 0 && result.invalid === 0
          ? 'Every recipient is on your suppression list (opted out); nothing to send'
          : 'None of the numbers is valid; nothing to send';
    throw new AppError(ErrorCode.UNPROCESSABLE, why);
  }
  return result;
}
