import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openPglite, openPostgres } from '../src/platform/db';
import { migrate } from '../src/platform/migrate';
import { adminUrl, TEST_ROOT } from './pg-admin';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
    pgTemplate: string | null;
  }
}

/**
 * Prepares one migrated database template per run: a PGlite data dir that each test server copies
 * (fast), and, when TEST_DATABASE_URL is set, a PostgreSQL template database each test server clones.
 */
export default async function setup(project: TestProject) {
  mkdirSync(TEST_ROOT, { recursive: true });
  const templateDir = path.join(TEST_ROOT, `template-${process.pid}`);
  rmSync(templateDir, { recursive: true, force: true });
  const lite = await openPglite(templateDir);
  await migrate(lite);
  await lite.close();
  project.provide('pgliteTemplate', templateDir);

  let pgTemplate: string | null = null;
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    pgTemplate = `wren_tpl_${process.pid}`;
    const admin = await openPostgres(adminUrl(url), 1);
    await admin.execScript(`DROP DATABASE IF EXISTS ${pgTemplate}`);
    await admin.execScript(`CREATE DATABASE ${pgTemplate}`);
    await admin.close();
    const tpl = await openPostgres(adminUrl(url, pgTemplate), 1);
    await migrate(tpl);
    await tpl.close();
  }
  project.provide('pgTemplate', pgTemplate);

  return async () => {
    rmSync(templateDir, { recursive: true, force: true });
    if (url && pgTemplate) {
      const admin = await openPostgres(adminUrl(url), 1);
      await admin.execScript(`DROP DATABASE IF EXISTS ${pgTemplate}`);
      await admin.close();
    }
  };
}
