import { randomInt } from 'node:crypto';
import {
  ErrorCode,
  smppAccountInputSchema,
  smppAccountUpdateSchema,
  type SmppAccountCreated,
  type SmppAccountDto,
  type SmppAccountInput,
  type SmppAccountUpdate,
  type SmppBindList,
  type SmppBindMode,
  type SmppIdNotation,
} from '@wren/contracts';
import { sql } from 'kysely';
import type { Db } from '../../platform/db';
import { AppError, notFound } from '../../platform/errors';
import type { Logger } from '../../platform/logger';
import { parseInput } from '../../shared/parse-input';
import { isUniqueViolation } from '../../shared/unique-violation';
import { canonicalAllowlist } from '../api-keys/api-key-input';
import { compileAllowlist } from '../api-keys/ip-allowlist';
import { recordAudit } from '../audit/audit.service';
import { hashPassword, verifyPassword } from '../auth/passwords';
import * as repo from './smpp-accounts.repository';

/** NOTIFY channel: an SMPP account was disabled, rotated, changed or deleted (its binds are closed). */
export const SMPP_ACCOUNT_CHANGED = 'wren_smpp_account_changed';

const PASSWORD_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
/** SMPP 3.4's password field holds 8 characters (9 octets with the NUL). */
const PASSWORD_LENGTH = 8;

function newPassword() {
  let p = '';
  for (let i = 0; i < PASSWORD_LENGTH; i++) p += PASSWORD_ALPHABET[randomInt(PASSWORD_ALPHABET.length)];
  return p;
}

/** What a bound session knows of its login (refreshed on every bind). */
export interface SmppPrincipal {
  smppAccountId: string;
  accountId: string;
  systemId: string;
  maxBinds: number;
  throughputPerSecond: number;
  windowSize: number;
  defaultSender: string | null;
  idNotation: SmppIdNotation;
}

/** A refused bind: the SMPP command_status to answer and why (for the audit log). */
export interface BindRefusal {
  status: number;
  reason: string;
}

/** SMPP 3.4 command_status values for binds. */
export const BIND_STATUS = {
  ESME_RBINDFAIL: 0x0d,
  ESME_RINVPASWD: 0x0e,
  ESME_RINVSYSID: 0x0f,
} as const;

/**
 * Failed binds allowed in a minute on one node, per system_id and per IP address (an address may
 * carry several logins); beyond them binds are refused unchecked (ESME_RBINDFAIL).
 */
export const FAILED_BINDS_PER_MINUTE = { systemId: 5, ip: 20 } as const;

function toDto(
  r: repo.SmppAccountRow,
  counts: { waiting: Map<string, number>; binds: Map<string, number> },
): SmppAccountDto {
  return {
    id: r.id,
    systemId: r.system_id,
    name: r.name,
    ipAllowlist: r.ip_allowlist,
    maxBinds: r.max_binds,
    bindModes: r.bind_modes as SmppBindMode[],
    throughputPerSecond: r.throughput_per_second,
    windowSize: r.window_size,
    defaultSender: r.default_sender,
    idNotation: r.id_notation,
    status: r.disabled_at ? 'disabled' : 'active',
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
    passwordRotatedAt: r.password_rotated_at?.toISOString() ?? null,
    lastBindAt: r.last_bind_at?.toISOString() ?? null,
    lastBindIp: r.last_bind_ip,
    receiptsWaiting: counts.waiting.get(r.id) ?? 0,
    receiptsExpired: Number(r.expired_count),
    liveBinds: counts.binds.get(r.id) ?? 0,
  };
}

/** Failed-bind counters per key over a sliding minute (one node's memory). */
function failureWindow(now: () => number) {
  const hits = new Map<string, number[]>();
  return {
    count(key: string) {
      const cutoff = now() - 60_000;
      const list = (hits.get(key) ?? []).filter((t) => t > cutoff);
      if (list.length) hits.set(key, list);
      else hits.delete(key);
      return list.length;
    },
    add(key: string) {
      const list = hits.get(key) ?? [];
      list.push(now());
      hits.set(key, list);
      if (hits.size > 10_000) hits.delete(hits.keys().next().value!);
    },
  };
}

/**
 * SMPP accounts (issue 37): the logins an account's SMPP clients bind with. Create (the password is
 * returned once), list, edit, rotate, disable, enable, delete, and the live binds; and the check
 * of a bind (password, IP allowlist, disabled, bind mode), audited and rate-limited when it fails.
 */
export function createSmppAccountsService(deps: { db: Db; logger: Logger; now?: () => number }) {
  const { db } = deps;
  const now = deps.now ?? Date.now;
  const failures = failureWindow(now);
  /** Called on this node when an account changes (the listener closes its binds); NOTIFY tells the others. */
  const changeListeners = new Set<(id: string) => void>();

  async function changed(id: string) {
    for (const l of changeListeners) l(id);
    await sql`SELECT pg_notify(${SMPP_ACCOUNT_CHANGED}, ${id})`.execute(db);
  }

  async function getRow(accountId: string, id: string) {
    const row = await repo.findAccount(db, accountId, id);
    if (!row) throw notFound('SMPP account');
    return row;
  }

  async function dtoOf(row: repo.SmppAccountRow) {
    return toDto(row, await repo.countsOf(db, [row.id]));
  }

  const audit = (
    e: { accountId: string; userId: string | null; ip?: string | null; id: string },
    kind: string,
    message: string,
  ) =>
    recordAudit(db, {
      accountId: e.accountId,
      userId: e.userId,
      ip: e.ip ?? null,
      kind,
      message,
      resourceType: 'smpp_account',
      resourceId: e.id,
    });

  return {
    onChanged(listener: (id: string) => void) {
      changeListeners.add(listener);
      return () => changeListeners.delete(listener);
    },

    async create(input: {
      accountId: string;
      userId: string;
      ip: string | null;
      body: SmppAccountInput;
    }): Promise<SmppAccountCreated> {
      const body = parseInput(smppAccountInputSchema, input.body);
      const password = newPassword();
      let row: repo.SmppAccountRow;
      try {
        row = await repo.insertAccount(db, {
          account_id: input.accountId,
          created_by: input.userId,
          system_id: body.systemId,
          name: body.name,
          password_hash: await hashPassword(password),
          ip_allowlist: canonicalAllowlist(body.ipAllowlist),
          max_binds: body.maxBinds,
          bind_modes: [...new Set(body.bindModes)],
          throughput_per_second: body.throughputPerSecond,
          window_size: body.windowSize,
          default_sender: body.defaultSender,
          id_notation: body.idNotation,
          updated_at: new Date(),
        });
      } catch (err) {
        if (isUniqueViolation(err, 'smpp_accounts_system_id_key'))
          throw new AppError(ErrorCode.CONFLICT, `The system_id "${body.systemId}" is taken; choose another`);
        throw err;
      }
      await audit({ ...input, id: row.id }, 'smpp.account_created', `SMPP account ${row.system_id} created`);
      return { account: await dtoOf(row), password };
    },

    async list(accountId: string) {
      const rows = await repo.listAccounts(db, accountId);
      const counts = await repo.countsOf(
        db,
        rows.map((r) => r.id),
      );
      return { data: rows.map((r) => toDto(r, counts)) };
    },

    async get(accountId: string, id: string) {
      return dtoOf(await getRow(accountId, id));
    },

    async update(accountId: string, id: string, patch: SmppAccountUpdate) {
      const body = parseInput(smppAccountUpdateSchema, patch);
      await getRow(accountId, id);
      const row = await repo.updateAccount(db, accountId, id, {
        name: body.name,
        ip_allowlist: body.ipAllowlist ? canonicalAllowlist(body.ipAllowlist) : undefined,
        max_binds: body.maxBinds,
        bind_modes: body.bindModes ? [...new Set(body.bindModes)] : undefined,
        throughput_per_second: body.throughputPerSecond,
        window_size: body.windowSize,
        default_sender: body.defaultSender,
        id_notation: body.idNotation,
      });
      if (!row) throw notFound('SMPP account');
      // Binds take the new limits when they bind again: close them (clients rebind at once).
      await changed(id);
      return dtoOf(row);
    },

    async rotate(
      actor: { accountId: string; userId: string; ip: string | null },
      id: string,
    ): Promise<SmppAccountCreated> {
      await getRow(actor.accountId, id);
      const password = newPassword();
      const row = await repo.updateAccount(db, actor.accountId, id, {
        password_hash: await hashPassword(password),
        password_rotated_at: new Date(),
      });
      if (!row) throw notFound('SMPP account');
      await audit(
        { ...actor, id },
        'smpp.password_rotated',
        `SMPP account ${row.system_id}: password rotated`,
      );
      await changed(id);
      return { account: await dtoOf(row), password };
    },

    async setDisabled(
      actor: { accountId: string; userId: string; ip: string | null },
      id: string,
      disabled: boolean,
    ) {
      const current = await getRow(actor.accountId, id);
      if (Boolean(current.disabled_at) === disabled) return dtoOf(current);
      const row = await repo.updateAccount(db, actor.accountId, id, {
        disabled_at: disabled ? new Date() : null,
      });
      if (!row) throw notFound('SMPP account');
      await audit(
        { ...actor, id },
        disabled ? 'smpp.account_disabled' : 'smpp.account_enabled',
        `SMPP account ${row.system_id} ${disabled ? 'disabled' : 'enabled'}`,
      );
      if (disabled) await changed(id);
      return dtoOf(row);
    },

    async remove(actor: { accountId: string; userId: string; ip: string | null }, id: string) {
      const current = await getRow(actor.accountId, id);
      if (!(await repo.deleteAccount(db, actor.accountId, id))) throw notFound('SMPP account');
      await audit({ ...actor, id }, 'smpp.account_deleted', `SMPP account ${current.system_id} deleted`);
      await changed(id);
    },

    async binds(accountId: string, id: string): Promise<SmppBindList> {
      const row = await getRow(accountId, id);
      const [binds, counts] = await Promise.all([repo.listBinds(db, id), repo.countsOf(db, [id])]);
      return {
        data: binds.map((b) => ({
          id: b.id,
          node: b.node,
          mode: b.mode,
          remoteAddress: b.remote_address,
          tls: b.tls,
          boundSince: b.bound_at.toISOString(),
          windowInUse: b.window_in_use,
          submitsPerSecond: Math.round(b.submits_per_second * 10) / 10,
        })),
        receiptsWaiting: counts.waiting.get(id) ?? 0,
        receiptsExpired: Number(row.expired_count),
      };
    },

    /**
     * Checks a bind. Refused: an unknown system_id or a wrong password (both ESME_RINVPASWD... the
     * unknown one ESME_RINVSYSID), a disabled login or locked account, an address outside the
     * allowlist, a mode not allowed, or too many binds (ESME_RBINDFAIL). Each refusal is audited
     * and counted; after FAILED_BINDS_PER_MINUTE for the system_id or the IP, binds are refused
     * without looking (and no longer audited one by one).
     */
    async authenticate(input: {
      systemId: string;
      password: string;
      ip: string;
      mode: SmppBindMode;
      /** Binds open now for a login (all nodes). */
      liveBinds: (smppAccountId: string) => Promise<number>;
    }): Promise<SmppPrincipal | BindRefusal> {
      const idKey = `id:${input.systemId}`;
      const ipKey = `ip:${input.ip}`;
      if (
        failures.count(idKey) >= FAILED_BINDS_PER_MINUTE.systemId ||
        failures.count(ipKey) >= FAILED_BINDS_PER_MINUTE.ip
      ) {
        failures.add(idKey);
        failures.add(ipKey);
        return { status: BIND_STATUS.ESME_RBINDFAIL, reason: 'too many failed binds; try again in a minute' };
      }
      const row = await repo.findBySystemId(db, input.systemId);
      const refuse = async (status: number, reason: string): Promise<BindRefusal> => {
        failures.add(idKey);
        failures.add(ipKey);
        await recordAudit(db, {
          accountId: row?.account_id ?? null,
          userId: null,
          ip: input.ip,
          kind: 'smpp.bind_failed',
          message: `SMPP bind (${input.mode}) as ${JSON.stringify(input.systemId.slice(0, 20))} refused: ${reason}`,
          resourceType: row ? 'smpp_account' : null,
          resourceId: row?.id ?? null,
        }).catch((err: unknown) => deps.logger.error({ err }, 'could not audit a failed SMPP bind'));
        return { status, reason };
      };
      const passwordOk = await verifyPassword(row?.password_hash, input.password);
      if (!row) return refuse(BIND_STATUS.ESME_RINVSYSID, 'unknown system_id');
      if (!passwordOk) return refuse(BIND_STATUS.ESME_RINVPASWD, 'wrong password');
      if (row.disabled_at) return refuse(BIND_STATUS.ESME_RBINDFAIL, 'the SMPP account is disabled');
      if (row.account_locked_at || row.account_parent_locked_at)
        return refuse(BIND_STATUS.ESME_RBINDFAIL, 'the account is locked');
      if (!compileAllowlist(row.ip_allowlist)(input.ip))
        return refuse(BIND_STATUS.ESME_RBINDFAIL, `address ${input.ip} is not in the allowlist`);
      if (!row.bind_modes.includes(input.mode))
        return refuse(BIND_STATUS.ESME_RBINDFAIL, `bind mode ${input.mode} is not allowed`);
      if ((await input.liveBinds(row.id)) >= row.max_binds)
        return refuse(BIND_STATUS.ESME_RBINDFAIL, `already ${row.max_binds} bind(s) open (max binds)`);
      await repo.recordBind(db, row.id, input.ip);
      return {
        smppAccountId: row.id,
        accountId: row.account_id,
        systemId: row.system_id,
        maxBinds: row.max_binds,
        throughputPerSecond: row.throughput_per_second,
        windowSize: row.window_size,
        defaultSender: row.default_sender,
        idNotation: row.id_notation,
      };
    },
  };
}

export type SmppAccountsService = ReturnType<typeof createSmppAccountsService>;
export const isRefusal = (r: SmppPrincipal | BindRefusal): r is BindRefusal => 'status' in r;
