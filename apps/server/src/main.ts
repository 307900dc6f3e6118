import './platform/v8-flags';
import { loadConfig, ConfigError, type Config } from './platform/config';
import { createContext, type AppContext } from './app/context';
import { openDatabase } from './platform/db';
import { createLogger } from './platform/logger';
import { migrate } from './platform/migrate';
import { BackupError, backupEmbedded, restoreEmbedded } from './platform/backup';
import { buildApp } from './app/http-app';
import { startWorker, type Worker } from './app/worker';
import { startWorkerNode } from './app/worker-node';
import { hostname } from 'node:os';

const USAGE = `Usage: wren <command>

Commands:
  start [--role all|api|worker]   run Wren (default role: all; the ROLE variable also sets it)
  migrate                         apply database migrations and exit
  user:promote <username>         give a user the admin role
  backup <file>                   back up the embedded database (online) to a .tar.gz file
  restore <file>                  restore a backup into DATA_DIR, which must hold no database yet
`;

async function main(argv: string[]) {
  const [command, ...rest] = argv;
  let config: Config;
  try {
    const roleFlag = rest.indexOf('--role');
    const env = { ...process.env };
    if (roleFlag >= 0 && rest[roleFlag + 1]) env.ROLE = rest[roleFlag + 1];
    config = loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }
  const logger = createLogger(config.logLevel);

  switch (command) {
    case 'start':
      return start(config, logger);
    case 'migrate': {
      const database = await openDb(config, logger);
      const applied = await migrate(database);
      logger.info({ applied }, applied.length ? 'migrations applied' : 'database is up to date');
      await database.close();
      return;
    }
    case 'user:promote': {
      const username = rest[0];
      if (!username) throw new Error('user:promote needs a username');
      const database = await openDb(config, logger);
      await migrate(database);
      const ctx = createContext(config, database, logger);
      try {
        await ctx.services.users.promote(username);
        console.log(`${username} is now an admin`);
      } finally {
        await database.close();
      }
      return;
    }
    case 'backup':
    case 'restore':
      return backupCommand(command, rest[0], config);
    default:
      console.log(USAGE);
      process.exit(command ? 2 : 0);
  }
}

/** `wren backup <file>` and `wren restore <file>` (platform/backup.ts; embedded database only). */
async function backupCommand(command: 'backup' | 'restore', file: string | undefined, config: Config) {
  if (!file) {
    console.error(`${command} needs a file: npm run wren -- ${command} wren-backup.tar.gz`);
    process.exit(2);
  }
  if (config.databaseUrl) {
    console.error(
      `DATABASE_URL is set: back up an external PostgreSQL with its own tools (pg_dump, or base backups and WAL archiving); see docs/operations.md#backups.`,
    );
    process.exit(2);
  }
  try {
    if (command === 'backup') {
      const m = await backupEmbedded({ dataDir: config.dataDir, file });
      const rows = Object.entries(m.counts)
        .map(([t, n]) => `${t} ${n}`)
        .join(', ');
      console.log(`Backed up ${config.dataDir} to ${file}: ${m.files} files, ${m.bytes} bytes; ${rows}.`);
    } else {
      const { manifest, counts } = await restoreEmbedded({ dataDir: config.dataDir, file });
      const rows = Object.entries(counts)
        .map(([t, n]) => `${t} ${n}`)
        .join(', ');
      console.log(
        `Restored the backup of ${manifest.createdAt} into ${config.dataDir}; ${rows} (as in the backup).`,
      );
    }
  } catch (err) {
    if (err instanceof BackupError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
}

/** DATABASE_URL, or the embedded PostgreSQL under DATA_DIR (its log lines at debug level). */
function openDb(config: Config, logger: ReturnType<typeof createLogger>) {
  return openDatabase({ ...config, onPostgresLog: (line) => logger.debug({ postgres: line }, 'postgres') });
}

async function start(config: Config, logger: ReturnType<typeof createLogger>) {
  const database = await openDb(config, logger);
  const applied = await migrate(database);
  if (applied.length) logger.info({ applied }, 'migrations applied');
  const ctx = createContext(config, database, logger);
  if (config.role === 'worker') return startWorkerRole(ctx);
  const app = await buildApp(ctx);
  let worker: Worker | null = null;
  if (config.role === 'all') worker = await startWorker(ctx, `${hostname()}:${process.pid}`);
  // The database closes after every onClose hook has run (they run in reverse order of
  // registration, so one here would close it before the app's background jobs have stopped).
  app.addHook('onClose', async () => {
    await worker?.stop();
  });

  exitOnSignals(logger, 10_000, async () => {
    await app.close();
    await database.close();
  });

  await app.listen({ port: config.port, host: config.host });
  logger.info(
    { url: config.publicUrl, database: database.kind, dataDir: config.dataDir, role: config.role },
    'Wren is running',
  );
}

/**
 * On SIGINT/SIGTERM: runs `shutdown` once and exits 0, or 1 when it fails or outlasts `forceMs`.
 */
function exitOnSignals(logger: AppContext['logger'], forceMs: number, shutdown: () => Promise<void>) {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), forceMs);
    force.unref();
    shutdown().then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error({ err }, 'error during shutdown');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

/** `--role worker`: no HTTP API and no hub; pushes leave through the PostgreSQL emitter. */
async function startWorkerRole(ctx: AppContext) {
  const { config, logger, database } = ctx;
  const node = await startWorkerNode(ctx, `${hostname()}:${process.pid}`);
  exitOnSignals(logger, 20_000, async () => {
    await node.close();
    await database.close();
  });
  logger.info(
    {
      database: database.kind,
      role: config.role,
      healthPort: node.health?.port ?? null,
      pushes: node.pushes,
    },
    'Wren worker is running',
  );
}

main(process.argv.slice(2)).catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
