import type { Db } from '../../platform/db';
import { WORKER_ALIVE_MS, type WorkerReport } from './worker-report';

/** The reports of the workers alive now (their connections, binds, pauses and figures). */
export async function aliveReports(db: Db): Promise<WorkerReport[]> {
  const rows = await db.selectFrom('worker_heartbeats').select(['heartbeat_at', 'status']).execute();
  const now = Date.now();
  return rows
    .filter((r) => now - r.heartbeat_at.getTime() < WORKER_ALIVE_MS)
    .flatMap((r) => (r.status ? [r.status as WorkerReport] : []));
}
