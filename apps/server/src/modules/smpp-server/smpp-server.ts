import { randomUUID } from 'node:crypto';
import net, { type AddressInfo, type Server } from 'node:net';
import tls from 'node:tls';
import type { SmppServerInfo } from '@wren/contracts';
import { sql } from 'kysely';
import { TokenBucket } from '../../gateway/token-bucket';
import type { Db } from '../../platform/db';
import type { Logger } from '../../platform/logger';
import { listenChannel, type PgListener } from '../../platform/pg-listener';
import type { MessagesService } from '../messages/messages.service';
import {
  SMPP_ACCOUNT_CHANGED,
  type SmppAccountsService,
  type SmppPrincipal,
} from '../smpp-accounts/smpp-accounts.service';
import * as outbox from './smpp-outbox';
import { createSmppSend } from './smpp-send';
import { DELIVER_TIMEOUT_MS, SmppServerSession, type SessionHost } from './smpp-session';
import { smppTlsCredentials } from './tls-cert';

/** NOTIFY channel of the outbox trigger (migration 0037): payload, the SMPP account's id. */
export const SMPP_OUTBOX_CHANNEL = 'wren_smpp_outbox';

export interface SmppServerConfig {
  host: string;
  /** null: no plain listener; 0: any free port. */
  port: number | null;
  tlsPort: number | null;
  /** The port values came from the environment (a busy port is then fatal, else a warning). */
  explicit: boolean;
  tlsCertFile?: string;
  tlsKeyFile?: string;
  systemId: string;
  receiptTtlMinutes: number;
  retrySeconds: number;
}

export interface SmppServer {
  info(): SmppServerInfo;
  /** Bound sessions of this node. */
  sessions(): readonly SmppServerSession[];
  /** Runs the outbox upkeep now (expiry, stale parts, a pass over every bound login). */
  sweep(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The SMPP server for customers (issue 37) on an API node: plain TCP and TLS listeners, one
 * SmppServerSession per connection, the node's binds in smpp_binds (for max_binds and the live
 * list on every node), each login's throughput bucket, and the outbox pump: receipts and inbound
 * messages of smpp_outbox go to the login's receiver binds on this node, in order, and are deleted
 * on deliver_sm_resp. A node learns of new rows by NOTIFY (a worker's receipt reaches the API node
 * holding the bind) and by a sweep every `retrySeconds` (also the retry of unanswered rows).
 */
export async function startSmppServer(deps: {
  config: SmppServerConfig;
  db: Db;
  databaseUrl: string | undefined;
  dataDir: string;
  logger: Logger;
  accounts: SmppAccountsService;
  messages: MessagesService;
  defaultCountry: string;
  node: string;
}): Promise<SmppServer> {
  const { db, logger, config } = deps;
  const send = createSmppSend({ db, messages: deps.messages, logger, defaultCountry: deps.defaultCountry });
  /** Bound sessions; `connections`: every open one (bound or not). */
  const sessions = new Set<SmppServerSession>();
  const connections = new Set<SmppServerSession>();
  const buckets = new Map<string, TokenBucket>();
  /** Per login bound here: this node's binds / the login's binds on every node (refreshed every 5 s). */
  const shares = new Map<string, number>();
  const pumping = new Map<string, Promise<void>>();
  const again = new Set<string>();
  let closing = false;
  let selfSigned = false;

  const receiversOf = (smppAccountId: string) =>
    [...sessions].filter((s) => !s.isClosed && s.isReceiver && s.principal?.smppAccountId === smppAccountId);

  /** Sends what waits for a login to its receivers on this node, while they have room. */
  function pump(smppAccountId: string) {
    if (closing) return;
    if (pumping.has(smppAccountId)) {
      again.add(smppAccountId);
      return;
    }
    const run = (async () => {
      do {
        again.delete(smppAccountId);
        for (;;) {
          const receivers = receiversOf(smppAccountId);
          const room = receivers.reduce((n, s) => n + s.deliverRoom, 0);
          if (room === 0) break;
          const rows = await outbox.claim(
            db,
            smppAccountId,
            room,
            Math.ceil((2 * DELIVER_TIMEOUT_MS) / 1000),
          );
          if (rows.length === 0) break;
          const unsent: number[] = [];
          for (const row of rows) {
            const s = receivers.find((r) => !r.isClosed && r.deliverRoom > 0);
            if (!s?.principal) {
              unsent.push(row.id);
              continue;
            }
            s.deliver(row.id, outbox.deliverFields(row, s.principal.idNotation));
          }
          await outbox.release(db, unsent, 0);
          if (unsent.length) break;
        }
      } while (again.has(smppAccountId) && !closing);
    })()
      .catch((err: unknown) => logger.error({ err, smppAccountId }, 'SMPP outbox pump failed'))
      .finally(() => pumping.delete(smppAccountId));
    pumping.set(smppAccountId, run);
  }

  // Answers of deliver_sm, batched: deleted (ESME_ROK) or released for a retry.
  let done: number[] = [];
  let retry: number[] = [];
  let flushTimer: NodeJS.Timeout | null = null;
  const flushAnswers = async () => {
    flushTimer = null;
    const [d, r] = [done, retry];
    done = [];
    retry = [];
    await outbox.remove(db, d).catch((err: unknown) => logger.error({ err }, 'SMPP outbox delete failed'));
    await outbox
      .release(db, r, config.retrySeconds)
      .catch((err: unknown) => logger.error({ err }, 'SMPP outbox release failed'));
  };
  const scheduleFlush = () => {
    flushTimer ??= setTimeout(() => void flushAnswers().then(() => afterFlush()), 0);
  };
  const afterFlush = () => {
    for (const id of new Set(
      [...sessions].flatMap((s) => (s.principal && s.isReceiver ? [s.principal.smppAccountId] : [])),
    ))
      pump(id);
  };

  const host: SessionHost = {
    accounts: deps.accounts,
    send,
    logger,
    systemId: config.systemId,
    async liveBinds(smppAccountId) {
      const { rows } = await sql<{ n: number }>`
        SELECT count(*)::int AS n FROM smpp_binds
         WHERE smpp_account_id = ${smppAccountId}::uuid AND seen_at > now() - interval '30 seconds'`.execute(
        db,
      );
      return rows[0]?.n ?? 0;
    },
    takeToken(p: SmppPrincipal) {
      // This node's part of the login's limit: its share of the login's binds on all nodes.
      const rate = Math.max(1, p.throughputPerSecond * (shares.get(p.smppAccountId) ?? 1));
      let b = buckets.get(p.smppAccountId);
      if (!b || b.rate !== rate) {
        b = new TokenBucket(rate, rate);
        buckets.set(p.smppAccountId, b);
      }
      return b.take();
    },
    async bound(s) {
      sessions.add(s);
      await db
        .insertInto('smpp_binds')
        .values({
          id: s.bindId,
          smpp_account_id: s.principal!.smppAccountId,
          node: deps.node,
          mode: s.mode!,
          remote_address: s.remoteAddress,
          tls: s.tls,
        })
        .execute();
    },
    closed(s) {
      const had = sessions.delete(s);
      const inFlight = [...s.delivering.values()].map((d) => d.outboxId);
      // Its unanswered receipts go to another bind at once (not after their claim lapses).
      void outbox
        .release(db, inFlight, 0)
        .then(() => s.principal && s.isReceiver && pump(s.principal.smppAccountId))
        .catch((err: unknown) => logger.error({ err }, 'SMPP outbox release failed'));
      if (had) {
        void db
          .deleteFrom('smpp_binds')
          .where('id', '=', s.bindId)
          .execute()
          .catch((err: unknown) => logger.error({ err }, 'SMPP bind row delete failed'));
      }
    },
    receiverReady(s) {
      if (s.principal) pump(s.principal.smppAccountId);
    },
    deliverAnswered(_s, outboxId, status) {
      if (status === 0) done.push(outboxId);
      else retry.push(outboxId);
      scheduleFlush();
    },
  };

  const onSocket = (socket: net.Socket, isTls: boolean) => {
    if (closing) return socket.destroy();
    const session = new SmppServerSession(socket, isTls, host, randomUUID());
    connections.add(session);
    socket.once('close', () => connections.delete(session));
  };

  async function listen(server: Server, port: number, what: string): Promise<number | null> {
    return new Promise((resolve, reject) => {
      server.once('error', (err: NodeJS.ErrnoException) => {
        if (config.explicit) return reject(err);
        logger.warn(
          { err, port },
          `SMPP ${what} listener not started (set SMPP_SERVER_PORT / SMPP_SERVER_TLS_PORT)`,
        );
        resolve(null);
      });
      server.listen(port, config.host, () => {
        server.removeAllListeners('error');
        server.on('error', (err) => logger.error({ err }, `SMPP ${what} listener error`));
        resolve((server.address() as AddressInfo).port);
      });
    });
  }

  const servers: Server[] = [];
  let port: number | null = null;
  let tlsPort: number | null = null;
  if (config.port !== null) {
    const s = net.createServer((socket) => onSocket(socket, false));
    servers.push(s);
    port = await listen(s, config.port, 'TCP');
  }
  if (config.tlsPort !== null) {
    const creds = await smppTlsCredentials({
      dataDir: deps.dataDir,
      certFile: config.tlsCertFile,
      keyFile: config.tlsKeyFile,
      hostname: config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host,
    });
    selfSigned = creds.selfSigned;
    const s = tls.createServer({ key: creds.key, cert: creds.cert }, (socket) => onSocket(socket, true));
    s.on('tlsClientError', () => undefined);
    servers.push(s);
    tlsPort = await listen(s, config.tlsPort, 'TLS');
  }

  // This node's bind rows: refreshed (figures, seen_at) every 5 s; the ones of a node that died
  // stop counting after 30 s.
  const refresh = setInterval(() => {
    const bound = [...sessions].filter((s) => s.principal && !s.isClosed);
    if (!bound.length) return;
    void sql`
      UPDATE smpp_binds b SET window_in_use = v.w, submits_per_second = v.r, seen_at = now()
        FROM unnest(${bound.map((s) => s.bindId)}::uuid[], ${bound.map((s) => s.windowInUse)}::int[],
                    ${bound.map((s) => s.submitsPerSecond())}::real[]) AS v(id, w, r)
       WHERE b.id = v.id`
      .execute(db)
      .then(async () => {
        const ids = [...new Set(bound.map((s) => s.principal!.smppAccountId))];
        const { rows } = await sql<{ id: string; total: number; mine: number }>`
          SELECT smpp_account_id AS id, count(*)::int AS total,
                 count(*) FILTER (WHERE node = ${deps.node})::int AS mine
            FROM smpp_binds
           WHERE smpp_account_id = ANY(${ids}::uuid[]) AND seen_at > now() - interval '30 seconds'
           GROUP BY smpp_account_id`.execute(db);
        shares.clear();
        for (const r of rows) if (r.total > 0) shares.set(r.id, Math.max(r.mine, 1) / r.total);
      })
      .catch((err: unknown) => logger.warn({ err }, 'SMPP bind refresh failed'));
  }, 5000);
  refresh.unref();

  async function sweep() {
    await outbox.expire(db, config.receiptTtlMinutes);
    await outbox.dropStaleParts(db);
    await sql`DELETE FROM smpp_binds WHERE seen_at < now() - interval '5 minutes'`.execute(db);
    for (const s of sessions) if (s.principal && s.isReceiver) pump(s.principal.smppAccountId);
  }
  const sweeper = setInterval(() => {
    void sweep().catch((err: unknown) => logger.warn({ err }, 'SMPP outbox sweep failed'));
  }, config.retrySeconds * 1000);
  sweeper.unref();

  // Across nodes: new outbox rows (any node's trigger) and changed logins (their binds close).
  const closeBindsOf = (smppAccountId: string) => {
    for (const s of sessions) if (s.principal?.smppAccountId === smppAccountId) s.close();
  };
  const offChanged = deps.accounts.onChanged(closeBindsOf);
  const listeners: PgListener[] = [
    listenChannel({
      databaseUrl: deps.databaseUrl,
      channel: SMPP_OUTBOX_CHANNEL,
      logger,
      onNotify: (id) => {
        if (receiversOf(id).length) pump(id);
      },
      onGap: () => void sweep().catch(() => undefined),
    }),
    listenChannel({
      databaseUrl: deps.databaseUrl,
      channel: SMPP_ACCOUNT_CHANGED,
      logger,
      onNotify: closeBindsOf,
    }),
  ];
  await Promise.all(listeners.map((l) => l.ready()));

  logger.info({ host: config.host, port, tlsPort, selfSigned }, 'SMPP server listening');

  return {
    info: () => ({ host: config.host, port, tlsPort, selfSignedCertificate: tlsPort !== null && selfSigned }),
    sessions: () => [...sessions],
    sweep,
    async close() {
      closing = true;
      clearInterval(refresh);
      clearInterval(sweeper);
      offChanged();
      await Promise.all(listeners.map((l) => l.close()));
      const closedServers = servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve())));
      const open = [...sessions];
      for (const s of connections) s.socket.destroy();
      await Promise.allSettled([...pumping.values()]);
      if (flushTimer) clearTimeout(flushTimer);
      await flushAnswers();
      // Receipts in flight on this node's binds: back to the outbox for the next bind (any node).
      await outbox.release(
        db,
        open.flatMap((s) => [...s.delivering.values()].map((d) => d.outboxId)),
        0,
      );
      await db.deleteFrom('smpp_binds').where('node', '=', deps.node).execute();
      await Promise.all(closedServers);
    },
  };
}
