import { sql } from 'kysely';
import type { ConnectionDto } from '@wren/contracts';
import type { Db } from '../../platform/db';
import type { Logger } from '../../platform/logger';
import type { SmscConnectionConfig } from '../../platform/smsc-connections';
import { formatIdNotation, parseIdNotation } from '../../platform/smsc-id-notation';
import { openSecret, sealSecret } from '../../platform/secret-box';

/** The key purpose the SMPP passwords are sealed under (platform/secret-box.ts). */
const PASSWORD_PURPOSE = 'wren smsc connection password v1';

/** What `settings` holds: the console's fields, without the name and the password. */
export type ConnectionSettings = Omit<
  ConnectionDto,
  'name' | 'passwordSet' | 'origin' | 'draining' | 'paused' | 'updatedAt'
>;

export interface StoredConnection {
  name: string;
  origin: 'env' | 'console';
  settings: ConnectionSettings;
  /** null: sealed under another server secret (JWT_SECRET changed): the operator enters it again. */
  password: string | null;
  draining: boolean;
  updatedAt: Date;
}

/** A connection's settings as stored, from its configuration (the environment's, or the console's). */
export function settingsOf(c: SmscConnectionConfig): ConnectionSettings {
  const p = c.policy ?? {};
  return {
    host: c.host,
    port: c.port,
    tls: c.tls ?? false,
    tlsVerify: c.tlsVerify ?? true,
    systemId: c.systemId,
    systemType: c.systemType ?? '',
    binds: c.binds,
    bindMode: c.bindMode ?? 'trx',
    window: c.window,
    tps: c.tps,
    prefixes: [...c.prefixes],
    idNotation: c.idNotation === undefined ? null : formatIdNotation(c.idNotation),
    receiptTimeoutMinutes: p.receiptTimeoutMinutes ?? null,
    otpReceiptTimeoutMinutes: p.otpReceiptTimeoutMinutes ?? null,
    acceptd: p.acceptd ?? null,
    unknownState: p.unknownState ?? null,
    onUnanswered: p.onUnanswered ?? null,
    flapSeconds: c.flapSeconds ?? null,
    flapWarnAfter: c.flapWarnAfter ?? null,
  };
}

const orUndefined = <T>(v: T | null | undefined): T | undefined => (v === null ? undefined : v);

/** The configuration the gateway and the policies read, from stored settings. */
export function configOf(name: string, s: ConnectionSettings, password: string): SmscConnectionConfig {
  const idNotation = s.idNotation === null ? undefined : parseIdNotation(s.idNotation);
  return {
    name,
    host: s.host,
    port: s.port,
    tls: s.tls,
    tlsVerify: s.tlsVerify,
    systemId: s.systemId,
    password,
    systemType: s.systemType || undefined,
    binds: s.binds,
    bindMode: s.bindMode,
    window: s.window,
    tps: s.tps,
    prefixes: s.prefixes,
    idNotation,
    flapSeconds: orUndefined(s.flapSeconds),
    flapWarnAfter: orUndefined(s.flapWarnAfter),
    policy: {
      receiptTimeoutMinutes: orUndefined(s.receiptTimeoutMinutes),
      otpReceiptTimeoutMinutes: orUndefined(s.otpReceiptTimeoutMinutes),
      acceptd: orUndefined(s.acceptd),
      unknownState: orUndefined(s.unknownState),
      onUnanswered: orUndefined(s.onUnanswered),
    },
  };
}

/** JSON with sorted keys: jsonb answers keys in its own order, settings compare by value. */
export function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v ?? null);
}

export const sealPassword = (secret: string, password: string) =>
  sealSecret(secret, PASSWORD_PURPOSE, password);

function openPassword(secret: string, sealed: string): string | null {
  try {
    return openSecret(secret, PASSWORD_PURPOSE, sealed);
  } catch {
    return null;
  }
}

/** Every stored connection, oldest first (the order the gateway binds them and the console lists them). */
export async function loadConnections(db: Db, secret: string): Promise<StoredConnection[]> {
  const rows = await db
    .selectFrom('smsc_connections')
    .selectAll()
    .orderBy('created_at')
    .orderBy('name')
    .execute();
  return rows.map((r) => ({
    name: r.name,
    origin: r.origin,
    settings: r.settings as ConnectionSettings,
    password: openPassword(secret, r.password_enc),
    draining: r.draining,
    updatedAt: r.updated_at,
  }));
}

export async function connectionsVersion(db: Db): Promise<string> {
  const row = await db.selectFrom('smsc_connections_version').select('version').executeTakeFirst();
  return String(row?.version ?? '0');
}

/** In the transaction of every change: workers see the new version at their next report. */
export async function bumpConnectionsVersion(trx: Db): Promise<void> {
  await sql`UPDATE smsc_connections_version SET version = version + 1`.execute(trx);
}

/**
 * SMSC_CONNECTIONS (or SMSC_HOST) seeds the stored connections at a worker's start: one not stored
 * yet is added, and one still as the environment left it (origin 'env') follows the environment's
 * current settings. One an operator edited (origin 'console') is never overwritten; one an operator
 * removed is seeded again while the environment still names it (the log says so).
 */
export async function seedConnections(
  db: Db,
  secret: string,
  env: readonly SmscConnectionConfig[],
  logger: Logger,
): Promise<void> {
  if (env.length === 0) return;
  await db.transaction().execute(async (trx) => {
    // One seeding at a time: two workers starting together write each row once.
    await sql`SELECT version FROM smsc_connections_version FOR UPDATE`.execute(trx);
    const stored = new Map((await loadConnections(trx, secret)).map((c) => [c.name, c]));
    let changed = 0;
    for (const c of env) {
      const settings = settingsOf(c);
      const s = stored.get(c.name);
      if (s?.origin === 'console') continue;
      if (s && canonical(s.settings) === canonical(settings) && s.password === c.password) continue;
      await trx
        .insertInto('smsc_connections')
        .values({
          name: c.name,
          origin: 'env',
          settings: JSON.stringify(settings),
          password_enc: sealPassword(secret, c.password),
        })
        .onConflict((oc) =>
          oc.column('name').doUpdateSet({
            settings: JSON.stringify(settings),
            password_enc: sealPassword(secret, c.password),
            updated_at: new Date(),
          }),
        )
        .execute();
      changed += 1;
    }
    if (changed > 0) {
      await bumpConnectionsVersion(trx);
      logger.info({ connections: changed }, 'SMPP connections seeded from the environment');
    }
  });
}
