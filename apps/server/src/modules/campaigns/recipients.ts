import {
  analyseSmsText,
  CAMPAIGN_ISSUE_SAMPLE,
  CAMPAIGN_PREVIEW_ROWS,
  ErrorCode,
  type CampaignIssue,
} from '@wren/contracts';
import type { Db } from '../../platform/db';
import { AppError, FieldError } from '../../platform/errors';
import { withTightHeapGrowth } from '../../platform/heap-growth';
import * as repo from './campaigns.repository';
import { PhoneSet } from './phone-set';
import { checkCandidate } from './recipient-check';
import { screenAndPrice, type ScanEntry } from './recipient-pricing';
import { groupFieldKeys } from '../contacts/campaign-port';
import { candidateSources, checkOwnGroups } from './recipient-sources';
import { scanLayout } from './scan-layout';
import type { Recipient, ScanDeps, ScanResult, ScanSource } from './scan-types';

/** Recipients screened and priced together (one suppression query, one quote). */
export const SCAN_BATCH = 5000;

/**
 * The placeholders contacts fill must be their fields: name, phone, or a custom field some contact
 * of the chosen groups has (case-insensitively). Any other is a 400 naming the fields there are, as
 * a personalised file's unknown column is.
 */
async function checkContactFields(db: Db, accountId: string, groupIds: string[], columns: string[]) {
  const keys = await groupFieldKeys(db, accountId, groupIds);
  const known = new Set(['name', 'phone', ...keys.map((k) => k.toLowerCase())]);
  const unknown = columns.filter((c) => !known.has(c.toLowerCase()));
  if (unknown.length === 0) return;
  const fields = ['name', 'phone', ...keys.filter((k) => !['name', 'phone'].includes(k.toLowerCase()))];
  throw new FieldError({
    text: [
      `No contact field matches ${unknown.map((m) => `{{${m}}}`).join(', ')}; ${
        groupIds.length ? "the groups' contacts have" : 'without contact groups the recipients have only'
      } ${fields.map((f) => `{{${f}}}`).join(', ')}`,
    ],
  });
}

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
  if (personalised && !upload && !src.resendOf && src.groupIds.length === 0) {
    throw new FieldError({
      uploadId: ['Upload a CSV or XLSX file with the recipients and their values, or choose contact groups'],
    });
  }
  if (personalised && upload && src.groupIds.length > 0) {
    throw new FieldError({ groupIds: ['Send to a file or to contact groups, not both'] });
  }
  // Another account's group is not found, whatever else the request holds.
  await checkOwnGroups(db, src.accountId, src.groupIds);
  const linkBase = src.trackLinks ? deps.linkBase : null;
  const { phoneIndex, columns, columnIndex, bulkInfo, pasted, filled } = scanLayout(src, upload, linkBase);
  if (columns.length && columnIndex.length === 0 && !src.resendOf) {
    await checkContactFields(db, src.accountId, src.groupIds, columns);
  }

  const seen = new PhoneSet();
  const result: ScanResult = {
    recipients: 0,
    invalid: 0,
    duplicates: 0,
    suppressed: 0,
    perSegmentMinor: 0,
    costMinor: 0,
    currency: 'USD',
    segments: filled ? 1 : bulkInfo.segments,
    encoding: filled ? 'GSM-7' : bulkInfo.encoding,
    characters: filled ? 0 : bulkInfo.characters,
    columns,
    issues: [],
    preview: [],
    missing: new Map(),
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
      { accountId: src.accountId, filled, bulkInfo, result, issue },
      current,
    );
    if (out.length === 0) return;
    result.recipients += out.length;
    await sink?.(out);
  };

  const sources = candidateSources(db, src, pasted, upload ? { info: upload, phoneIndex } : undefined, {
    columns,
    columnIndex,
  });
  const template = {
    personalised,
    filled,
    text: src.text,
    columns,
    defaultCountry: deps.defaultCountry,
    linkBase,
  };

  for (const source of sources) {
    for await (const candidates of source) {
      for (const c of candidates) {
        const { raw, e164, text, vals, problem, info: checked, missing } = checkCandidate(c, template);
        let info = checked;
        if (problem) {
          result.invalid += 1;
          issue(c.row, raw, problem);
          if (filled && result.preview.length < CAMPAIGN_PREVIEW_ROWS) {
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
        batch.push({ c, e164: e164!, phone, text, info, vals, missing });
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
