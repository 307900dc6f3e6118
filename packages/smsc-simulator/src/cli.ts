#!/usr/bin/env -S npx tsx
import { CLI_USAGE, parseCliArgs } from './cli-args.js';
import { startSmsc } from './server.js';

async function main(): Promise<void> {
  let opts;
  try {
    opts = parseCliArgs(process.argv.slice(2));
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    console.error(CLI_USAGE);
    process.exit(2);
  }
  if (opts.help) {
    console.log(CLI_USAGE);
    return;
  }
  const smsc = await startSmsc(opts);
  const creds = opts.credentials?.[0];
  console.log(
    `SMSC simulator listening on ${smsc.host}:${smsc.port} (system_id=${creds?.systemId}, password=${creds?.password})`,
  );
  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    const timer = setTimeout(() => process.exit(1), 5000);
    timer.unref();
    smsc.close().then(
      () => {
        const s = smsc.stats();
        console.log(
          `SMSC simulator stopped (${signal}): ${s.submitted} submitted, ${s.receiptsSent} receipts`,
        );
        process.exit(0);
      },
      (err: unknown) => {
        console.error(err);
        process.exit(1);
      },
    );
  };
  process.on('SIGHUP', () => {
    console.log('SMSC simulator restarting (SIGHUP): every session dropped');
    smsc.restart().catch((err: unknown) => console.error(err));
  });
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
