import {
  checkSenderId,
  createSenderIdSchema,
  ErrorCode,
  type AdminSenderIdPage,
  type AdminSenderIdQuery,
  type CreateSenderIdInput,
  type SenderIdDto,
  type SenderIdList,
} from '@wren/contracts';
import { z } from 'zod';
import { type Db, transact } from '../../platform/db';
import { AppError, notFound } from '../../platform/errors';
import type { EventBus } from '../../platform/events';
import { cursorId, cursorTime, decodeCursor, encodeCursor } from '../../shared/cursor';
import { parseInput } from '../../shared/parse-input';
import { recordAudit } from '../audit/audit.service';
import * as repo from './sender-ids.repository';

export type SenderIdApproval = 'manual' | 'auto';

interface Deps {
  db: Db;
  events: EventBus;
  /** SENDER_ID_APPROVAL: `manual` waits for an admin; `auto` approves on request. */
  approval: SenderIdApproval;
  /** The platform's sender for accounts with no default of their own (DEFAULT_SENDER). */
  systemDefault: string;
}

export function toSenderId(row: repo.SenderIdRow): SenderIdDto {
  return {
    id: row.id,
    value: row.value,
    kind: row.kind,
    purpose: row.purpose,
    sampleMessage: row.sample_message,
    status: row.status,
    reason: row.reason,
    isDefault: row.is_default,
    createdAt: row.created_at.toISOString(),
    decidedAt: row.decided_at?.toISOString() ?? null,
  };
}

const reviewCursor = z.object({ t: cursorTime, id: cursorId });
/**
 * How long a node reuses an account's sender IDs when resolving the sender of a send. Changes made
 * on this node clear it at once; a change made on another node is seen within this time.
 */
const SEND_LOOKUP_CACHE_MS = 2000;

const unusable = (message: string) => new AppError(ErrorCode.SENDER_ID_NOT_APPROVED, message);

/** A sender ID as sends and requests compare it: normalised (digits only for a number), any case. */
const senderKey = (value: string) => {
  const check = checkSenderId(value);
  return (check.ok ? check.value : value.trim()).toLowerCase();
};

/** "A", "A" and "B", "A", "B" and "C" (at most five names, then how many more). */
function quotedList(names: string[]): string {
  const shown = names.slice(0, 5).map((n) => `"${n}"`);
  if (names.length > shown.length) shown.push(`${names.length - shown.length} more`);
  return shown.length === 1 ? shown[0] : `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]}`;
}

/** Whether the account may send from this sender ID of its own; the value to send from if so. */
function usableValue(row: repo.SenderIdRow | undefined, value: string): string {
  if (!row) {
    throw unusable(
      `Sender ID "${value}" is not registered on your account. Request it under Sender IDs first.`,
    );
  }
  if (row.status === 'approved') return row.value;
  if (row.status === 'requested') {
    throw unusable(`Sender ID "${row.value}" is awaiting approval and cannot be used yet.`);
  }
  throw unusable(`Sender ID "${row.value}" was rejected${row.reason ? `: ${row.reason}` : ''}.`);
}

export function createSenderIdsService(deps: Deps) {
  const { db, events } = deps;
  const system = deps.systemDefault;
  /** The platform's shared sender (DEFAULT_SENDER): every account may send from it, unrequested. */
  const isShared = (value: string) => senderKey(value) === senderKey(system);
  const changed = (accountId: string) => events.publish('sender.changed', { accountId });
  const sendLookup = new Map<string, { until: number; rows: Promise<repo.SenderIdRow[]> }>();
  events.subscribe('sender.changed', ({ accountId }) => sendLookup.delete(accountId));

  /** The account's sender IDs for sending, from a short per-node cache (one query per account). */
  function sendersOf(accountId: string): Promise<repo.SenderIdRow[]> {
    const hit = sendLookup.get(accountId);
    if (hit && hit.until > Date.now()) return hit.rows;
    const rows = repo.listSenderIds(db, accountId);
    sendLookup.set(accountId, { until: Date.now() + SEND_LOOKUP_CACHE_MS, rows });
    rows.catch(() => sendLookup.delete(accountId));
    if (sendLookup.size > 10_000) sendLookup.delete(sendLookup.keys().next().value!);
    return rows;
  }

  /** What an account's sends that name no sender use after it lost its default. */
  const newDefaultNote = (promoted: repo.SenderIdRow | undefined) =>
    promoted
      ? `"${promoted.value}" is now the default sender ID`
      : system
        ? `messages that name no sender now go from the platform's sender "${system}"`
        : 'the account has no default sender ID now';

  async function decide(input: {
    adminUserId: string;
    id: string;
    status: 'approved' | 'rejected';
    reason: string | null;
  }): Promise<SenderIdDto> {
    const row = await transact(db, async (trx) => {
      // The account is known only from the row: read it, then lock in the order every writer uses
      // (the account's advisory lock, then rows), so a decision and a user's change cannot deadlock.
      const found = await repo.findAnySenderId(trx, input.id);
      if (!found) throw notFound('Sender ID');
      const { hasDefault } = await repo.lockAccountSenders(trx, found.account_id);
      const current = await repo.lockSenderIdForChange(trx, found.account_id, input.id);
      if (!current) throw notFound('Sender ID');
      if (current.status === input.status) {
        throw new AppError(ErrorCode.CONFLICT, `Sender ID "${current.value}" is already ${input.status}`);
      }
      await repo.setDecision(trx, current.id, {
        status: input.status,
        reason: input.reason,
        decidedBy: input.adminUserId,
        // The account's first approved sender ID becomes its default; a rejected one never is.
        isDefault: input.status === 'approved' && !hasDefault,
      });
      // A rejected default hands the default on, as a deleted one does.
      const promoted =
        input.status === 'rejected' && current.is_default
          ? await repo.promoteOldestApproved(trx, current.account_id)
          : undefined;
      await recordAudit(trx, {
        accountId: current.account_id,
        userId: null,
        kind: `sender_id.${input.status}`,
        message:
          input.status === 'approved'
            ? `Sender ID "${current.value}" was approved`
            : `Sender ID "${current.value}" was rejected: ${input.reason ?? ''}${
                current.is_default ? `; ${newDefaultNote(promoted)}` : ''
              }`,
      });
      return (await repo.findSenderId(trx, current.account_id, current.id))!;
    });
    changed(row.account_id);
    return toSenderId(row);
  }

  return {
    async list(input: { accountId: string }): Promise<SenderIdList> {
      return {
        items: (await repo.listSenderIds(db, input.accountId)).map(toSenderId),
        approval: deps.approval,
        platformSender: system,
      };
    },

    /**
     * Requests a sender ID (the hub's CreateSenderId(payload) calls this; input is validated here).
     * Under `auto` approval it is approved at once, and the account's first becomes its default.
     */
    async createSenderId(input: CreateSenderIdInput & { accountId: string; userId?: string | null }) {
      const body = parseInput(createSenderIdSchema, {
        value: input.value,
        purpose: input.purpose,
        sampleMessage: input.sampleMessage,
      });
      const check = checkSenderId(body.value);
      if (!check.ok) throw unusable(check.message); // unreachable: the schema checked it
      if (isShared(check.value)) {
        // Requested, it would only wait for a review that can change nothing, and meanwhile hold
        // back the account's sends naming it (an account's own sender ID is looked up first).
        throw new AppError(
          ErrorCode.CONFLICT,
          `"${system}" is the platform's shared sender ID: every account can already send from it, without a request. Request a name of your own.`,
        );
      }
      const auto = deps.approval === 'auto';
      const row = await transact(db, async (trx) => {
        const existing = await repo.findSenderIdByValue(trx, input.accountId, check.value);
        if (existing) {
          throw new AppError(
            ErrorCode.CONFLICT,
            `You already have the sender ID "${existing.value}" (${existing.status})`,
          );
        }
        const { hasDefault } = auto
          ? await repo.lockAccountSenders(trx, input.accountId)
          : { hasDefault: true };
        const created = await repo.insertSenderId(trx, {
          accountId: input.accountId,
          value: check.value,
          kind: check.kind,
          purpose: body.purpose,
          sampleMessage: body.sampleMessage,
          status: auto ? 'approved' : 'requested',
          reason: auto ? 'Approved automatically' : null,
          isDefault: auto && !hasDefault,
        });
        if (!created) {
          throw new AppError(ErrorCode.CONFLICT, `You already have the sender ID "${check.value}"`);
        }
        await recordAudit(trx, {
          accountId: input.accountId,
          userId: input.userId ?? null,
          kind: auto ? 'sender_id.approved' : 'sender_id.requested',
          message: auto
            ? `Sender ID "${created.value}" was approved automatically`
            : `Sender ID "${created.value}" was requested and awaits approval`,
        });
        return created;
      });
      changed(input.accountId);
      return toSenderId(row);
    },

    /** Makes an approved sender ID the account's default. */
    async setDefault(input: { accountId: string; id: string }): Promise<SenderIdDto> {
      const row = await transact(db, async (trx) => {
        await repo.lockAccountSenders(trx, input.accountId);
        const current = await repo.findSenderId(trx, input.accountId, input.id);
        if (!current) throw notFound('Sender ID');
        if (current.status !== 'approved') {
          throw unusable(
            `Only an approved sender ID can be the default; "${current.value}" is ${current.status}`,
          );
        }
        await repo.makeDefault(trx, input.accountId, input.id);
        return (await repo.findSenderId(trx, input.accountId, input.id))!;
      });
      changed(input.accountId);
      return toSenderId(row);
    },

    /**
     * Deletes one of the account's sender IDs. Refused (409) while an OTP service of the account
     * names it: the service would send from a sender that no longer exists. A deleted default hands
     * the default to the account's oldest approved sender ID (see `promoteOldestApproved`), or,
     * with none left, sends that name no sender go from the platform's sender.
     *
     * Race-free with an OTP service being saved: that save locks the sender ID's row FOR SHARE
     * (`lockSenderForUse`) and this locks it FOR UPDATE before looking for services, so either the
     * service is committed first and seen here, or the row is gone when the save looks for it.
     */
    async remove(input: { accountId: string; id: string; userId?: string | null }): Promise<void> {
      await transact(db, async (trx) => {
        await repo.lockAccountSenders(trx, input.accountId);
        const row = await repo.lockSenderIdForChange(trx, input.accountId, input.id);
        if (!row) throw notFound('Sender ID');
        const key = senderKey(row.value);
        // A service naming the shared sender sends from it, not from a row of that name (one
        // requested before such requests were refused), so that row never has users.
        const users = isShared(row.value)
          ? []
          : (await repo.otpServicesNamingASender(trx, input.accountId)).filter(
              (s) => senderKey(s.sender_id) === key,
            );
        if (users.length) {
          const one = users.length === 1;
          throw new AppError(
            ErrorCode.CONFLICT,
            `Sender ID "${row.value}" is used by the OTP service${one ? '' : 's'} ${quotedList(
              users.map((s) => s.name),
            )}. Choose another sender for ${one ? 'it' : 'them'} first, then delete this sender ID.`,
          );
        }
        await repo.deleteSenderId(trx, input.accountId, input.id);
        const promoted = row.is_default ? await repo.promoteOldestApproved(trx, input.accountId) : undefined;
        await recordAudit(trx, {
          accountId: input.accountId,
          userId: input.userId ?? null,
          kind: 'sender_id.deleted',
          message: `Sender ID "${row.value}" was deleted${row.is_default ? `; ${newDefaultNote(promoted)}` : ''}`,
        });
      });
      changed(input.accountId);
    },

    /**
     * For something saved in `trx` that will send from `value` (an OTP service): checks the account
     * may send from it, as a send would, and locks the account's sender ID of that value FOR SHARE
     * until `trx` ends, so it cannot be deleted meanwhile (see `remove`). Returns the value to send
     * from; the platform's shared sender needs no row.
     */
    async lockSenderForUse(trx: Db, input: { accountId: string; value: string }): Promise<string> {
      const check = checkSenderId(input.value);
      const value = check.ok ? check.value : input.value.trim();
      if (isShared(value)) return system;
      return usableValue(await repo.lockSenderIdForUse(trx, input.accountId, value), value);
    },

    /**
     * The sender a send uses: the named one if it is the platform's shared sender or the account
     * has it approved, else the account's default, else the platform default. Throws
     * SENDER_ID_NOT_APPROVED (422) for a sender ID that is unknown to the account, awaiting
     * approval or rejected.
     */
    async resolveSenderForSend(input: { accountId: string; value?: string | null }) {
      const wanted = input.value?.trim();
      // The shared sender is every account's, whatever the account's own rows say (one requested
      // before such requests were refused must not hold its sends back).
      if (wanted && isShared(wanted)) return system;
      const senders = await sendersOf(input.accountId);
      if (wanted) {
        const check = checkSenderId(wanted);
        const value = check.ok ? check.value : wanted;
        return usableValue(
          senders.find((s) => s.value.toLowerCase() === value.toLowerCase()),
          value,
        );
      }
      const def = senders.find((s) => s.is_default);
      if (def) return def.value;
      if (system) return system;
      throw unusable('Choose a sender ID: your account has no default approved sender ID.');
    },

    async listForReview(q: AdminSenderIdQuery): Promise<AdminSenderIdPage> {
      const after = q.cursor ? decodeCursor(q.cursor, reviewCursor) : undefined;
      const rows = await repo.listForReview(db, { status: q.status, after, limit: q.limit + 1 });
      const page = rows.slice(0, q.limit);
      const last = page[page.length - 1];
      return {
        items: page.map((r) => ({ ...toSenderId(r), accountId: r.account_id, accountName: r.account_name })),
        nextCursor: rows.length > q.limit && last ? encodeCursor({ t: last.created_key, id: last.id }) : null,
      };
    },

    approve(input: { adminUserId: string; id: string; reason?: string }) {
      return decide({ ...input, status: 'approved', reason: input.reason || null });
    },

    reject(input: { adminUserId: string; id: string; reason: string }) {
      return decide({ ...input, status: 'rejected' });
    },
  };
}

export type SenderIdsService = ReturnType<typeof createSenderIdsService>;
