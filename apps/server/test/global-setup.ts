import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openPostgres } from '../src/platform/db';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../src/platform/embedded-postgres';
import { migrate } from '../src/platform/migrate';
import { adminUrl, TEST_ROOT } from './pg-admin';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The PostgreSQL server the tests use: TEST_DATABASE_URL, or this run's embedded cluster. */
    pgUrl: string;
    /** The migrated template database each test server clones. */
    pgTemplate: string;
  }
}

/**
 * Prepares one PostgreSQL server per run and one migrated template database on it that each test
 * server clones (`CREATE DATABASE … TEMPLATE …`). The server is TEST_DATABASE_URL when set, else an
 * embedded native PostgreSQL cluster started for this run under .data-test and removed after it.
 */
export default async function setup(project: TestProject) {
  mkdirSync(TEST_ROOT, { recursive: true });
  removeAbandonedClusters();
  let cluster: EmbeddedPostgres | null = null;
  const clusterRoot = path.join(TEST_ROOT, `pg-${process.pid}`);
  let url = process.env.TEST_DATABASE_URL;
  if (!url) {
    rmSync(clusterRoot, { recursive: true, force: true });
    cluster = await startEmbeddedPostgres({ root: clusterRoot, mode: 'test' });
    url = cluster.url();
  }
  const pgTemplate = `wren_tpl_${process.pid}`;
  try {
    const admin = await openPostgres(adminUrl(url), 1);
    await admin.execScript(`DROP DATABASE IF EXISTS ${pgTemplate}`);
    await admin.execScript(`CREATE DATABASE ${pgTemplate}`);
    await admin.close();
    const tpl = await openPostgres(adminUrl(url, pgTemplate), 1);
    await migrate(tpl);
    await tpl.close();
  } catch (err) {
    await cluster?.stop();
    throw err;
  }
  project.provide('pgUrl', url);
  project.provide('pgTemplate', pgTemplate);

  return async () => {
    if (cluster) {
      await cluster.stop();
      rmSync(clusterRoot, { recursive: true, force: true });
      return;
    }
    const admin = await openPostgres(adminUrl(url), 1);
    await admin.execScript(`DROP DATABASE IF EXISTS ${pgTemplate}`);
    await admin.close();
  };
}

/**
 * A run that was killed never reached its teardown: its cluster (`pg-<vitest pid>`) still runs.
 * Stop the clusters of runs whose process is gone and remove them.
 */
function removeAbandonedClusters() {
  for (const name of readdirSync(TEST_ROOT)) {
    const run = /^pg-(\d+)$/.exec(name);
    if (!run || isAlive(Number(run[1]))) continue;
    const root = path.join(TEST_ROOT, name);
    try {
      const pid = Number(readFileSync(path.join(root, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
      if (pid > 0) process.kill(pid, 'SIGQUIT');
    } catch {
      // not running
    }
    rmSync(root, { recursive: true, force: true });
  }
}

function isAlive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
