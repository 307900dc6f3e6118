import { parseMix, startSmsc, type SmscHandle } from '@wren/smsc-simulator';
import { startRouteRefresh } from '../gateway/routing/route-refresh';
import { routedGateway } from '../gateway/routing/routed-gateway';
import { createSmppGateway } from '../gateway/smpp-gateway';
import type { SmsGateway } from '../gateway/sms-gateway';
import { loadPauses, pausableGateway, startWorkerReporter } from '../modules/admin/worker-reporter';
import { createDispatcher } from '../modules/messages/dispatcher';
import { accountsOnPlans } from '../modules/routing/account-plans';
import { loadRouteDefs, routesVersion } from '../modules/routing/route-store';
import { auditRotation } from '../modules/routing/rotation-audit';
import { createConnectionRefresh } from '../modules/routing/connection-refresh';
import { seedConnections } from '../modules/routing/connection-store';
import { ensurePartitionsAtBoot, registerPartitionJobs } from '../modules/messages/partitions';
import { listenQueueWake } from '../modules/messages/queue-wake';
import type { SmscConnectionConfig } from '../platform/config';
import type { AppContext } from './context';
import { registerWorkerJobs } from '../platform/worker-jobs';
import { DAILY_BACKUP_CHECK_SECONDS, DAILY_BACKUP_JOB, runDailyBackup } from '../platform/daily-backup';

export interface Worker {
  gateway: SmsGateway;
  /** The routes this node applies (`refresh()` reads a change now rather than within 2 s). */
  routes: ReturnType<typeof startRouteRefresh>;
  simulator: SmscHandle | null;
  dispatcher: ReturnType<typeof createDispatcher>;
  stop(): Promise<void>;
}

/**
 * The worker role: the SMPP gateway (to the configured SMSCs, or to the built-in simulator when none
 * is configured), the dispatcher that drains the queue, and delivery-receipt processing.
 */
export async function startWorker(ctx: AppContext, workerId: string): Promise<Worker> {
  const { config, logger } = ctx;
  let simulator: SmscHandle | null = null;
  // The connections are stored (issue 38): the environment's seed them, operators change them in
  // the console, and each report applies a change (modules/routing/connection-refresh.ts).
  await seedConnections(ctx.db, config.jwtSecret, config.smscConnections, logger);
  // Filled once the gateway is built: the refresh applies changes to it from then on.
  const live: { gateway?: SmsGateway; pausable?: ReturnType<typeof pausableGateway> } = {};
  const merge = (list: SmscConnectionConfig[]) => list.map((c) => ({ ...config.smpp, ...c }));
  const connectionRefresh = createConnectionRefresh({
    db: ctx.db,
    secret: config.jwtSecret,
    logger,
    registry: ctx.connections,
    apply: async (list) => {
      const merged = merge(list);
      if (!live.gateway?.reconfigure || !live.pausable) return;
      await live.gateway.reconfigure(merged, live.pausable.paused);
      live.pausable.setConnections(merged);
    },
  });
  let connections: SmscConnectionConfig[] = await connectionRefresh.initial();
  if (connections.length === 0) {
    simulator = await startSmsc({
      port: config.simulator.port,
      host: '127.0.0.1',
      receiptDelayMs: config.simulator.delayMs,
      statMix: parseMix(config.simulator.mix),
      credentials: [{ systemId: 'wren', password: 'wrenpass' }],
    });
    logger.info({ port: simulator.port }, 'no SMSC configured: built-in SMSC simulator started');
    connections = [
      {
        name: 'simulator',
        host: '127.0.0.1',
        port: simulator.port,
        systemId: 'wren',
        password: 'wrenpass',
        binds: 2,
        window: 50,
        tps: 0,
        prefixes: [],
      },
    ];
    connectionRefresh.useWhenNoneStored(connections);
  }
  ctx.connections.replace(connections);
  const merged = merge(connections);
  // Operator pauses and the status the admin console shows (modules/admin/worker-reporter.ts).
  const smppGateway = createSmppGateway({ connections: merged, logger });
  const pausable = pausableGateway(smppGateway, merged);
  live.gateway = smppGateway;
  live.pausable = pausable;
  // Routes (issue 38): each message's route chooses the connections to try; the stored routes are
  // read again within ROUTES_REFRESH_MS of an operator's change (gateway/routing).
  const routes = startRouteRefresh(
    {
      version: () => routesVersion(ctx.db),
      load: () => loadRouteDefs(ctx.db),
      accountsOnPlans: (ids) => accountsOnPlans(ctx.db, ids),
    },
    logger,
  );
  await routes.start();
  const routed = routedGateway(pausable.gateway, routes.state, {
    isPaused: (name) => pausable.paused.has(name),
    isDraining: (name) => pausable.draining.has(name),
    onRotation: auditRotation(ctx.db, logger, workerId),
  });
  const gateway = routed.gateway;
  const dlr = ctx.services.dlr;
  gateway.onReceipt((r) => dlr.handleReceipt(r));
  // Stored (and its keyword applied) before the gateway acknowledges it; a failure makes the SMSC resend.
  gateway.onMo(async (mo) => {
    await ctx.services.inbound.receive(mo);
  });
  // A connection an operator paused stays unbound through a restart (bound on resume).
  await loadPauses(ctx.db, pausable);
  await gateway.start();

  // This month's and the next months' partitions of `messages` exist before anything is sent
  // (modules/messages/partitions.ts; the daily pass keeps them ahead and applies retention). Months
  // follow the machine's clock, as message ids (UUIDv7) and created_at do, not the app's test clock.
  await ensurePartitionsAtBoot(ctx.db, new Date(), logger);

  const dispatcher = createDispatcher({
    db: ctx.db,
    gateway,
    events: ctx.events,
    ledger: ctx.services.ledger,
    config,
    logger,
    workerId,
    connections: ctx.connections,
  });
  dispatcher.start();
  // Messages queued on API-only nodes wake this dispatcher at once (modules/messages/queue-wake.ts).
  const queueWake = listenQueueWake({ databaseUrl: config.databaseUrl, logger, wake: dispatcher.wake });
  // The maintenance pass and the parked-receipt sweep run as pg-boss jobs (worker-jobs.ts).
  await ctx.jobs.start();
  const offJobs = registerWorkerJobs(ctx.jobs, {
    maintenance: (pass) => dispatcher.maintenance(pass),
    matchParked: () => dlr.matchParked(),
    renewNumbers: () => ctx.services.numbers.renewDue(),
  });
  const offPartitionJobs = registerPartitionJobs(ctx.jobs, {
    db: ctx.db,
    logger,
    retentionMonths: config.messageRetentionMonths,
    now: () => new Date(),
  });

  // Daily backups of the embedded database (BACKUP_DAILY_KEEP; platform/daily-backup.ts).
  const embedded = ctx.database.embedded;
  if (config.backupDailyKeep > 0 && !embedded) {
    logger.warn(
      'BACKUP_DAILY_KEEP is set but the database is external: back it up as PostgreSQL (docs/operations.md)',
    );
  }
  const offBackups =
    embedded && config.backupDailyKeep > 0
      ? ctx.jobs.every(DAILY_BACKUP_JOB, DAILY_BACKUP_CHECK_SECONDS, async () => {
          await runDailyBackup({ cluster: embedded, keep: config.backupDailyKeep, now: new Date(), logger });
        })
      : () => undefined;

  const reporter = startWorkerReporter({
    db: ctx.db,
    logger,
    workerId,
    role: config.role,
    pausable,
    figures: (name) => routed.window.figures(name),
    // An operator's change of the connections, read at every report (within CONNECTIONS_APPLY_SECONDS).
    controls: () => connectionRefresh.check(),
  });

  return {
    gateway,
    routes,
    simulator,
    dispatcher,
    stop: async () => {
      offJobs();
      offPartitionJobs();
      offBackups();
      routes.stop();
      await reporter.stop();
      await queueWake.close();
      await dispatcher.stop();
      await gateway.stop();
      await dlr.drain();
      await simulator?.close();
    },
  };
}
