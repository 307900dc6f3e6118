import type { ConnectionStatus } from '../../gateway/sms-gateway';

/**
 * What each worker writes into its heartbeat row every REPORT_INTERVAL_MS, and what the console
 * (system.service) and every node's /metrics (metrics/metrics.ts) read back. Types and constants
 * only: the writer (worker-reporter.ts) and both readers import this file, and none of them the other.
 */

/** How often a worker writes its heartbeat and gateway status, and reads operator pauses. */
export const REPORT_INTERVAL_MS = 1000;

/** A worker whose heartbeat is older than this is gone: its binds and figures are not counted. */
export const WORKER_ALIVE_MS = REPORT_INTERVAL_MS * 5;

/** Send-queue lanes (send_queue.priority, migration 0005). */
export const LANES: Record<number, string> = { 0: 'otp', 1: 'single', 2: 'bulk' };

/** A worker process's in-memory metric totals, for every node's /metrics (wren_worker_*). */
export interface WorkerTotals {
  receiptsFinal: Record<string, number>;
  submitSeconds: { buckets: Record<string, number>; sum: number; count: number };
}

export interface ReportedConnection extends ConnectionStatus {
  window: number;
  tps: number;
  paused: boolean;
  /** An operator drains it (absent in reports of workers from before). */
  draining?: boolean;
  /** Delivered ÷ final receipts over routing's health window, once it has enough (gateway/routing). */
  deliveredRatio?: number | null;
  /** Final receipts in that window. */
  finalReceipts?: number;
  /** Median ms from an accepted submit to its final receipt, over that window (enough receipts). */
  receiptP50Ms?: number | null;
  /** Every bound session is in a throttle pause. */
  throttled?: boolean;
}

export interface WorkerReport {
  connections: ReportedConnection[];
  /** Submits the SMSC accepted per minute (ISO minute → count), the last 30 minutes. */
  submittedPerMinute?: Record<string, number>;
  /** Final receipts per minute: delivered (DELIVRD) and failed (every other final stat). */
  deliveredPerMinute?: Record<string, number>;
  failedPerMinute?: Record<string, number>;
  /** This process's in-memory metric totals, for every node's /metrics (wren_worker_*). */
  totals?: WorkerTotals;
}
