import {
  ErrorCode,
  type CampaignEstimate,
  type CampaignIssue,
  type CampaignSourceInput,
  type CampaignUploadDto,
  type MissingValue,
} from '@wren/contracts';
import type { Config } from '../../platform/config';
import type { Db } from '../../platform/db';
import { AppError } from '../../platform/errors';
import { withTightHeapGrowth } from '../../platform/heap-growth';
import { previewImportFile } from '../contacts/import-preview';
import type { LedgerService } from '../ledger/ledger.service';
import * as repo from './campaigns.repository';
import { scanRecipients } from './recipients';
import type { ScanDeps } from './scan-types';
import { opensFor, resolveWindow, windowPlanner } from '../send-windows/campaign-window';
import { zoneOfNumber } from '../send-windows/phone-zone';
import { localLabel } from '../send-windows/window-time';

/** The scan's count of recipients sent each placeholder empty, most first. */
export function missingValuesOf(missing: Map<string, number>): MissingValue[] {
  return [...missing]
    .map(([placeholder, recipients]) => ({ placeholder, recipients }))
    .sort((a, b) => b.recipients - a.recipients || a.placeholder.localeCompare(b.placeholder));
}

interface Deps {
  db: Db;
  config: Config;
  ledger: LedgerService;
  /** What the recipients' scan reads with. */
  scanDeps: ScanDeps;
}

/** A campaign's recipients before it is sent: an uploaded file, and what sending to them would do. */
export function createSources(deps: Deps) {
  const { db, config, ledger, scanDeps } = deps;

  return {
    async upload(input: { accountId: string; fileName: string; bytes: Buffer }): Promise<CampaignUploadDto> {
      if (input.bytes.length > config.importMaxBytes) {
        throw new AppError(ErrorCode.PAYLOAD_TOO_LARGE, 'The file is too large');
      }
      const p = await withTightHeapGrowth(() => previewImportFile(input.bytes, config.defaultCountry));
      const fileName = input.fileName.trim().slice(0, 200) || `recipients.${p.fileType}`;
      const { id } = await repo.insertUpload(db, {
        account_id: input.accountId,
        file_name: fileName,
        file_type: p.fileType,
        delimiter: p.options.delimiter ?? null,
        encoding: p.options.encoding ?? null,
        has_header: p.options.hasHeader,
        columns: p.columns,
        row_count_guess: p.rowCountGuess,
        file: input.bytes,
      });
      return {
        uploadId: id,
        fileName,
        fileType: p.fileType,
        columns: p.columns,
        hasHeader: p.options.hasHeader,
        previewRows: p.previewRows,
        rowCountGuess: p.rowCountGuess,
        phoneColumn: p.suggestedMapping.phone,
      };
    },

    /** What a send would do, with nothing stored: counts, cost, balance after, issues, preview. */
    async estimate(accountId: string, input: CampaignSourceInput): Promise<CampaignEstimate> {
      // The send window's plan: recipients per time zone, from the schedule (or now).
      const window = await resolveWindow(db, accountId, input.sendWindow);
      const plan = window ? windowPlanner(window, input.timezone ?? 'UTC') : null;
      const scan = await scanRecipients(
        scanDeps,
        { ...input, accountId },
        plan
          ? async (batch) => {
              for (const r of batch) plan.add(r.phone);
            }
          : undefined,
      );
      const { balanceMinor } = await ledger.balance(db, accountId);
      const requested = input.scheduleAt ? new Date(input.scheduleAt) : new Date();
      const startAt = requested > new Date() ? requested : new Date();
      // Each previewed row's local send time: when its zone's window opens (now if open).
      const fallbackZone = input.timezone ?? 'UTC';
      const opens = window ? opensFor(window.window, fallbackZone, startAt) : null;
      const preview = scan.preview.map((p) => {
        if (!opens || !p.recipient || p.problem) return p;
        const timeZone = zoneOfNumber(p.recipient) ?? fallbackZone;
        return { ...p, timeZone, sendsAtLocal: localLabel(opens(p.recipient) ?? startAt, timeZone) };
      });
      return {
        recipients: scan.recipients,
        invalid: scan.invalid,
        duplicates: scan.duplicates,
        suppressed: scan.suppressed,
        segments: scan.segments,
        encoding: scan.encoding,
        characters: scan.characters,
        perSegmentMinor: scan.perSegmentMinor,
        costMinor: scan.costMinor,
        currency: scan.currency,
        balanceMinor,
        balanceAfterMinor: balanceMinor - scan.costMinor,
        issues: scan.issues,
        preview,
        sendWindows: plan ? plan.summary(startAt) : null,
        linkBase: input.trackLinks ? scanDeps.linkBase : null,
        missingValues: missingValuesOf(scan.missing),
      };
    },

    /** Every recipient that would not be sent (invalid, opted out, duplicate), with the reason. */
    async issues(accountId: string, input: CampaignSourceInput): Promise<CampaignIssue[]> {
      const all: CampaignIssue[] = [];
      try {
        await scanRecipients(scanDeps, { ...input, accountId }, undefined, (i) => {
          if (all.length < 1_000_000) all.push(i);
        });
      } catch (err) {
        // "Nothing to send" still has a list of why.
        if (!(err instanceof AppError && err.code === ErrorCode.UNPROCESSABLE && all.length)) throw err;
      }
      return all;
    },
  };
}
