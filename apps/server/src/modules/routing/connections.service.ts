import {
  ErrorCode,
  type ConnectionDto,
  type ConnectionList,
  type connectionCreateSchema,
  type connectionUpdateSchema,
} from '@wren/contracts';
import type { z } from 'zod';
import { transact, type Db } from '../../platform/db';
import { AppError, FieldError } from '../../platform/errors';
import { recordAudit } from '../audit/audit.service';
import type { Operator } from '../admin/operator';
import { aliveReports } from '../admin/alive-reports';
import {
  bumpConnectionsVersion,
  canonical,
  loadConnections,
  sealPassword,
  type ConnectionSettings,
  type StoredConnection,
} from './connection-store';

type CreateInput = z.output<typeof connectionCreateSchema>;
type UpdateInput = z.output<typeof connectionUpdateSchema>;

function settingsFrom(input: CreateInput | UpdateInput): ConnectionSettings {
  return {
    host: input.host,
    port: input.port,
    tls: input.tls,
    tlsVerify: input.tlsVerify,
    systemId: input.systemId,
    systemType: input.systemType,
    binds: input.binds,
    bindMode: input.bindMode,
    window: input.window,
    tps: input.tps,
    prefixes: [...new Set(input.prefixes)],
    idNotation: input.idNotation,
    receiptTimeoutMinutes: input.receiptTimeoutMinutes ?? null,
    otpReceiptTimeoutMinutes: input.otpReceiptTimeoutMinutes ?? null,
    acceptd: input.acceptd ?? null,
    unknownState: input.unknownState ?? null,
    onUnanswered: input.onUnanswered ?? null,
    flapSeconds: input.flapSeconds ?? null,
    flapWarnAfter: input.flapWarnAfter ?? null,
  };
}

function toDto(c: StoredConnection, paused: boolean): ConnectionDto {
  return {
    name: c.name,
    ...c.settings,
    passwordSet: c.password !== null,
    origin: c.origin,
    draining: c.draining,
    paused,
    updatedAt: c.updatedAt.toISOString(),
  };
}

/** One line for the audit log: where the connection binds and how (never the password). */
function describe(name: string, s: ConnectionSettings): string {
  const prefixes = s.prefixes.length ? s.prefixes.join(' ') : 'default';
  return (
    `${name} (${s.systemId}@${s.host}:${s.port}${s.tls ? ' TLS' : ''}, ${s.binds} ${s.bindMode} ` +
    `bind${s.binds === 1 ? '' : 's'}, window ${s.window}, ${s.tps ? `${s.tps} TPS` : 'no TPS limit'}, ` +
    `prefixes ${prefixes})`
  );
}

/** Fields whose value differs, for the audit line of an edit. */
function changedFields(before: ConnectionSettings, after: ConnectionSettings, password: boolean): string[] {
  const keys = Object.keys(after) as (keyof ConnectionSettings)[];
  const out: string[] = keys.filter((k) => canonical(before[k]) !== canonical(after[k]));
  if (password) out.push('password');
  return out;
}

/**
 * Operators' carrier connections (issue 38 item 1): list, add, edit, drain and remove them while
 * Wren runs. Each change is audited and bumps smsc_connections_version in its transaction; every
 * worker applies it at its next report (connection-refresh.ts). The prefixes a connection takes
 * without a route follow the gateway's rule: one default (no prefixes) at most, a prefix on one
 * connection only.
 */
export function createConnectionsService(deps: { db: Db; secret: string }) {
  const { db, secret } = deps;

  const reports = () => aliveReports(db);

  async function pausedNames(): Promise<Set<string>> {
    const rows = await db
      .selectFrom('smsc_connection_controls')
      .select('name')
      .where('paused', '=', true)
      .execute();
    return new Set(rows.map((r) => r.name));
  }

  /** The prefixes rule over every stored connection as they would be after the change. */
  function checkPrefixes(name: string, s: ConnectionSettings, others: StoredConnection[]) {
    const errors: string[] = [];
    for (const o of others) {
      if (o.name === name) continue;
      if (s.prefixes.length === 0 && o.settings.prefixes.length === 0) {
        errors.push(
          `${o.name} is already the default connection (no prefixes). Give this one the prefixes it takes ` +
            'when no route matches, or give them to the other',
        );
      }
      const both = s.prefixes.filter((p) => o.settings.prefixes.includes(p));
      if (both.length)
        errors.push(`${both.join(', ')} ${both.length === 1 ? 'is' : 'are'} already on ${o.name}`);
    }
    if (errors.length) throw new FieldError({ prefixes: errors });
  }

  async function audit(trx: Db, op: Operator, kind: string, name: string, message: string): Promise<void> {
    await recordAudit(trx, {
      accountId: null,
      userId: null,
      actorUserId: op.userId,
      ip: op.ip,
      kind,
      message,
      resourceType: 'smsc_connection',
      resourceId: name,
    });
  }

  /** The routes that list a connection (a connection in use is not removed). */
  async function routesUsing(trx: Db, name: string): Promise<string[]> {
    const rows = await trx
      .selectFrom('smsc_route_entries')
      .innerJoin('smsc_routes', 'smsc_routes.id', 'smsc_route_entries.route_id')
      .select('smsc_routes.name')
      .where('smsc_route_entries.connection', '=', name)
      .orderBy('smsc_routes.name')
      .execute();
    return rows.map((r) => r.name);
  }

  const lockedRow = async (trx: Db, name: string) => {
    const all = await loadConnections(trx, secret);
    const row = all.find((c) => c.name === name);
    return { all, row };
  };

  /** Changes are serialised: the prefixes rule is checked against the set as it is committed. */
  const serialise = (trx: Db) =>
    trx.selectFrom('smsc_connections_version').select('version').forUpdate().execute();

  async function one(name: string): Promise<ConnectionDto> {
    const [all, paused] = await Promise.all([loadConnections(db, secret), pausedNames()]);
    const c = all.find((x) => x.name === name);
    if (!c) throw new AppError(ErrorCode.NOT_FOUND, `No SMPP connection is named "${name}"`);
    return toDto(c, paused.has(name));
  }

  return {
    async list(): Promise<ConnectionList> {
      const [stored, paused, workers] = await Promise.all([
        loadConnections(db, secret),
        pausedNames(),
        reports(),
      ]);
      const items = stored.map((c) => toDto(c, paused.has(c.name)));
      // The built-in simulator's connection (no connection stored): shown, not editable.
      const names = new Set(items.map((i) => i.name));
      for (const w of workers)
        for (const c of w.connections) {
          if (names.has(c.name)) continue;
          names.add(c.name);
          items.push({
            name: c.name,
            host: '127.0.0.1',
            port: 0,
            tls: false,
            tlsVerify: false,
            systemId: '',
            systemType: '',
            passwordSet: true,
            binds: c.binds,
            bindMode: c.bindMode,
            window: c.binds > 0 ? Math.round(c.window / c.binds) : c.window,
            tps: 0,
            prefixes: [],
            idNotation: null,
            receiptTimeoutMinutes: null,
            otpReceiptTimeoutMinutes: null,
            acceptd: null,
            unknownState: null,
            onUnanswered: null,
            flapSeconds: null,
            flapWarnAfter: null,
            origin: 'builtin',
            draining: false,
            paused: c.paused,
            updatedAt: null,
          });
        }
      return { items };
    },

    async create(op: Operator, input: CreateInput): Promise<ConnectionDto> {
      const s = settingsFrom(input);
      await transact(db, async (trx) => {
        await serialise(trx);
        const { all, row } = await lockedRow(trx, input.name);
        if (row) throw new FieldError({ name: ['Another connection has that name'] });
        checkPrefixes(input.name, s, all);
        await trx
          .insertInto('smsc_connections')
          .values({
            name: input.name,
            origin: 'console',
            settings: JSON.stringify(s),
            password_enc: sealPassword(secret, input.password),
            updated_by: op.userId,
          })
          .execute();
        await bumpConnectionsVersion(trx);
        await audit(
          trx,
          op,
          'admin.connection_created',
          input.name,
          `Added SMPP connection ${describe(input.name, s)}: ${input.reason}`,
        );
      });
      return one(input.name);
    },

    async update(op: Operator, name: string, input: UpdateInput): Promise<ConnectionDto> {
      const s = settingsFrom(input);
      await transact(db, async (trx) => {
        await serialise(trx);
        const { all, row } = await lockedRow(trx, name);
        if (!row) throw new AppError(ErrorCode.NOT_FOUND, `No SMPP connection is named "${name}"`);
        checkPrefixes(name, s, all);
        const newPassword = input.password !== null && input.password !== undefined;
        if (!newPassword && row.password === null) {
          throw new FieldError({
            password: ['The stored password was sealed under another server secret: enter it again'],
          });
        }
        const fields = changedFields(row.settings, s, newPassword && input.password !== row.password);
        if (fields.length === 0 && row.origin === 'console') {
          throw new AppError(ErrorCode.CONFLICT, 'Nothing changed');
        }
        await trx
          .updateTable('smsc_connections')
          .set({
            origin: 'console',
            settings: JSON.stringify(s),
            ...(newPassword ? { password_enc: sealPassword(secret, input.password ?? '') } : {}),
            updated_at: new Date(),
            updated_by: op.userId,
          })
          .where('name', '=', name)
          .execute();
        await bumpConnectionsVersion(trx);
        const what = fields.length ? `changed ${fields.join(', ')}` : 'kept as the console’s from now on';
        await audit(
          trx,
          op,
          'admin.connection_changed',
          name,
          `Changed SMPP connection ${describe(name, s)}, ${what}: ${input.reason}`,
        );
      });
      return one(name);
    },

    async remove(op: Operator, name: string, reason: string): Promise<void> {
      await transact(db, async (trx) => {
        await serialise(trx);
        const { row } = await lockedRow(trx, name);
        if (!row) throw new AppError(ErrorCode.NOT_FOUND, `No SMPP connection is named "${name}"`);
        const routes = await routesUsing(trx, name);
        if (routes.length) {
          throw new AppError(
            ErrorCode.CONFLICT,
            `Routes send through ${name} (${routes.join(', ')}): take it out of them first`,
          );
        }
        await trx.deleteFrom('smsc_connections').where('name', '=', name).execute();
        await bumpConnectionsVersion(trx);
        const env =
          row.origin === 'env' ? ' (the environment still names it: it comes back at the next start)' : '';
        await audit(
          trx,
          op,
          'admin.connection_removed',
          name,
          `Removed SMPP connection ${name}${env}: ${reason}`,
        );
      });
    },

    /** Starts or ends a drain: no new messages through it, its binds kept for receipts and MO. */
    async setDraining(op: Operator, name: string, draining: boolean, reason: string): Promise<ConnectionDto> {
      await transact(db, async (trx) => {
        await serialise(trx);
        const { row } = await lockedRow(trx, name);
        if (!row) throw new AppError(ErrorCode.NOT_FOUND, `No SMPP connection is named "${name}"`);
        if (row.draining === draining) {
          throw new AppError(
            ErrorCode.CONFLICT,
            `${name} is ${draining ? 'already draining' : 'not draining'}`,
          );
        }
        await trx.updateTable('smsc_connections').set({ draining }).where('name', '=', name).execute();
        await audit(
          trx,
          op,
          draining ? 'admin.connection_drain_started' : 'admin.connection_drain_ended',
          name,
          `${draining ? 'Started draining' : 'Ended the drain of'} SMPP connection ${name}: ${reason}`,
        );
      });
      return one(name);
    },
  };
}

export type ConnectionsService = ReturnType<typeof createConnectionsService>;
