import {
  analyseSmsText,
  CAMPAIGN_ISSUE_SAMPLE,
  CAMPAIGN_MAX_PASTED,
  CAMPAIGN_MAX_TEXT,
  CAMPAIGN_PREVIEW_ROWS,
  ErrorCode,
  MAX_SEGMENTS,
  placeholdersOf,
  renderPersonalised,
  type CampaignIssue,
  type PreviewRow,
  type SmsEncoding,
} from '@wren/contracts';
import { sql } from 'kysely';
import type { Db } from '../../platform/db';
import { AppError, FieldError } from '../../platform/errors';
import { normaliseContactPhone } from '../contacts/contact-phone';
import { unguardCell } from '../contacts/csv';
import { csvRows, phoneCell, xlsxRows, type FileRow } from '../contacts/import-rows';
import { checkXlsxZip } from '../contacts/import-zip-guard';
import { withTightHeapGrowth } from '../../platform/heap-growth';
import type { FilterSuppressed } from '../inbound/inbound.service';
import type { PricingService } from '../pricing/pricing.service';
import * as repo from './campaigns.repository';
import { PhoneSet } from './phone-set';

/** Recipients screened and priced together (one suppression query, one quote). */
export const SCAN_BATCH = 5000;
/** The separator of a personalised row's values in campaign_recipients.vals. */
export const VALUE_SEPARATOR = '\u001f';

export interface ScanSource {
  kind: 'bulk' | 'personalised';
  accountId: string;
  text: string;
  groupIds: string[];
  numbers: string;
  uploadId?: string;
  phoneColumn?: string;
  /** Resend: the failed messages of this campaign (each with its own text). */
  resendOf?: string;
}

/** One recipient that will be sent to. */
export interface Recipient {
  /** E.164 digits as a number (15 digits at most: exact in a double). */
  phone: number;
  priceMinor: number;
  segments: number;
  /** Personalised: the placeholder columns' values joined by VALUE_SEPARATOR. */
  vals: string | null;
}

export interface ScanResult {
  recipients: number;
  invalid: number;
  duplicates: number;
  suppressed: number;
  /** Σ price of one segment over the recipients. */
  perSegmentMinor: number;
  costMinor: number;
  currency: string;
  /** Bulk: the text's; personalised: the most of any row. */
  segments: number;
  encoding: SmsEncoding;
  characters: number;
  /** The template's columns, in the order of each recipient's values. */
  columns: string[];
  issues: CampaignIssue[];
  preview: PreviewRow[];
}

interface Candidate {
  row: number | null;
  raw: string;
  cells?: string[];
  /** A resend's own text. */
  body?: string;
}

interface Deps {
  db: Db;
  pricing: PricingService;
  filterSuppressed?: FilterSuppressed;
  defaultCountry: string;
}

/** Splits pasted numbers: one per line, or separated by commas, semicolons or tabs. */
export function splitPasted(text: string): string[] {
  return text
    .split(/[\r\n,;\t]+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

async function* groupCandidates(db: Db, accountId: string, groupIds: string[]): AsyncGenerator<Candidate[]> {
  if (groupIds.length === 0) return;
  const found = await db
    .selectFrom('contact_groups')
    .select('id')
    .where('account_id', '=', accountId)
    .where('id', 'in', groupIds)
    .execute();
  if (found.length !== new Set(groupIds).size) throw new FieldError({ groupIds: ['Unknown group'] });
  for (const groupId of new Set(groupIds)) {
    let after = '';
    for (;;) {
      const rows = await db
        .selectFrom('contacts')
        .select('phone')
        .where('group_id', '=', groupId)
        .where('account_id', '=', accountId)
        .where('phone', '>', after)
        .orderBy('phone')
        .limit(10_000)
        .execute();
      yield rows.map((r): Candidate => ({ row: null, raw: r.phone }));
      const last = rows[rows.length - 1];
      if (!last || rows.length < 10_000) break;
      after = last.phone;
    }
  }
}

/** Rows handed to the scan at a time (one async step per batch, not per row). */
const ROW_BATCH = 1000;

/** The rows of a stored upload (the header row excluded), in batches of up to ROW_BATCH. */
export async function* uploadRows(db: Db, upload: repo.UploadInfo): AsyncGenerator<FileRow[]> {
  let rows: AsyncGenerator<FileRow>;
  if (upload.file_type === 'xlsx') {
    const file = await repo.uploadFile(db, upload.id);
    await checkXlsxZip(Buffer.from(file));
    rows = xlsxRows(file);
  } else {
    const text = await repo.uploadText(db, upload.id, upload.encoding ?? 'utf-8');
    rows = csvRows(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, upload.delimiter ?? ',');
  }
  let first = true;
  let batch: FileRow[] = [];
  for await (const r of rows) {
    if (first && upload.has_header) {
      first = false;
      continue;
    }
    first = false;
    batch.push(r);
    if (batch.length >= ROW_BATCH) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
}

async function* resendCandidates(db: Db, accountId: string, campaignId: string): AsyncGenerator<Candidate[]> {
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const rows = await sql<{ id: string; recipient: string; body: string }>`
      SELECT id, recipient, body FROM messages
       WHERE campaign_id = ${campaignId} AND account_id = ${accountId}
         AND status IN ('undelivered', 'expired', 'rejected', 'failed', 'unknown')
         AND id > ${after}::uuid
       ORDER BY id LIMIT 10000`.execute(db);
    yield rows.rows.map((r): Candidate => ({ row: null, raw: r.recipient, body: r.body }));
    const last = rows.rows[rows.rows.length - 1];
    if (!last || rows.rows.length < 10_000) return;
    after = last.id;
  }
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
  deps: Deps,
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
  let phoneIndex = -1;
  let columns: string[] = [];
  const columnIndex: number[] = [];
  if (upload) {
    const wanted = src.phoneColumn ?? upload.columns.find((c) => /phone|mobile|msisdn|number|cell/i.test(c));
    phoneIndex = wanted === undefined ? -1 : upload.columns.indexOf(wanted);
    if (phoneIndex < 0 && upload.columns.length === 1) phoneIndex = 0;
    if (phoneIndex < 0) {
      throw new FieldError({
        phoneColumn: [
          src.phoneColumn
            ? `The file has no column "${src.phoneColumn}"`
            : 'The file has no phone column; choose the column with the phone numbers',
        ],
      });
    }
    if (personalised) {
      columns = placeholdersOf(src.text);
      const missing = columns.filter((c) => !upload.columns.includes(c));
      if (missing.length) {
        throw new FieldError({
          text: [
            `No column matches ${missing.map((m) => `{{${m}}}`).join(', ')}; the file's columns are ${upload.columns.join(', ')}`,
          ],
        });
      }
      for (const c of columns) columnIndex.push(upload.columns.indexOf(c));
    }
  }
  if (src.resendOf) columns = personalised ? ['message'] : [];

  const bulkInfo = analyseSmsText(personalised ? '' : src.text);
  if (!personalised && bulkInfo.segments > MAX_SEGMENTS) {
    throw new FieldError({
      text: [`The message is too long: ${bulkInfo.segments} parts (at most ${MAX_SEGMENTS})`],
    });
  }
  const pasted = splitPasted(src.numbers);
  if (pasted.length > CAMPAIGN_MAX_PASTED) {
    throw new FieldError({
      numbers: [
        `At most ${CAMPAIGN_MAX_PASTED.toLocaleString('en-US')} pasted numbers; upload a file for more`,
      ],
    });
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

  type Info = ReturnType<typeof analyseSmsText>;
  let batch: {
    c: Candidate;
    e164: string;
    phone: number;
    text: string | null;
    info: Info | null;
    vals: string | null;
  }[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    const current = batch;
    batch = [];
    let allowed = current;
    if (deps.filterSuppressed) {
      const screened = await deps.filterSuppressed(
        src.accountId,
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
    if (allowed.length === 0) return;
    const quote = await deps.pricing.quote(
      src.accountId,
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
      if (result.preview.length < CAMPAIGN_PREVIEW_ROWS && personalised) {
        result.preview.push({
          row: b.c.row ?? 0,
          recipient: b.e164,
          text: b.text ?? '',
          segments: info.segments,
          encoding: info.encoding,
          costMinor: price,
          problem: null,
        });
      }
      return { phone: b.phone, priceMinor: price, segments: info.segments, vals: b.vals };
    });
    result.recipients += out.length;
    await sink?.(out);
  };

  const sources: AsyncGenerator<Candidate[]>[] = [];
  if (src.resendOf) sources.push(resendCandidates(db, src.accountId, src.resendOf));
  sources.push(groupCandidates(db, src.accountId, src.groupIds));
  sources.push(
    (async function* () {
      yield pasted.map((raw, i): Candidate => ({ row: i + 1, raw }));
    })(),
  );
  if (upload) {
    sources.push(
      (async function* () {
        for await (const rows of uploadRows(db, upload))
          yield rows.map((r): Candidate => ({ row: r.row, raw: phoneCell(r, phoneIndex), cells: r.cells }));
      })(),
    );
  }

  for (const source of sources) {
    for await (const candidates of source) {
      for (const c of candidates) {
        const raw = unguardCell(c.raw.trim());
        const e164 = raw ? normaliseContactPhone(raw, deps.defaultCountry) : null;
        let text: string | null = null;
        let vals: string | null = null;
        let problem: string | null = null;
        let info: Info | null = null;
        if (!e164) problem = raw ? 'Not a valid phone number' : 'No phone number';
        if (c.body !== undefined && personalised) {
          text = c.body;
          vals = c.body;
        } else if (personalised && c.cells) {
          const values = columnIndex.map((i) => unguardCell((c.cells![i] ?? '').trim()));
          const empty = columns.filter((_, i) => !values[i]);
          if (!problem && empty.length)
            problem = `Missing value for ${empty.map((e) => `{{${e}}}`).join(', ')}`;
          // U+001F separates stored values; PostgreSQL's text cannot hold U+0000.
          if (!problem && values.some((v) => v.includes(VALUE_SEPARATOR) || v.includes('\u0000')))
            problem = 'A value holds a control character';
          text = renderPersonalised(src.text, (name) => values[columns.indexOf(name)] ?? '');
          vals = values.join(VALUE_SEPARATOR);
          if (!problem && text.length > CAMPAIGN_MAX_TEXT)
            problem = `The message is over ${CAMPAIGN_MAX_TEXT} characters`;
          info = analyseSmsText(text);
          if (!problem && info.segments > MAX_SEGMENTS) problem = `The message is over ${MAX_SEGMENTS} parts`;
        }
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
