import { describe, expect, it } from 'vitest';
import { ConnectionHealthWindow, HEALTH_MIN_RECEIPTS, HEALTH_WINDOW_MINUTES } from './health-window';

describe('ConnectionHealthWindow: receipt latency', () => {
  it('takes the median time from an accepted submit to its final receipt, once there are enough', () => {
    let t = 1_000_000;
    const w = new ConnectionHealthWindow(() => t);
    for (let i = 0; i < HEALTH_MIN_RECEIPTS - 1; i++) {
      w.submitted('c', [`id${i}`]);
      t += 100 * (i + 1);
      w.record('c', 'DELIVRD', `id${i}`);
    }
    expect(w.figures('c').receiptP50Ms).toBeUndefined();
    w.submitted('c', ['last']);
    t += 100 * HEALTH_MIN_RECEIPTS;
    w.record('c', 'UNDELIV', 'last');
    // 100, 200, … 2000 ms: the median of 20 is between the 10th and the 11th.
    expect(w.figures('c')).toEqual({ deliveredRatio: 0.95, finalReceipts: 20, receiptP50Ms: 1050 });
  });

  it('counts a receipt only by the exact id the SMSC gave, on the same connection, once', () => {
    let t = 0;
    const w = new ConnectionHealthWindow(() => t);
    for (let i = 0; i < HEALTH_MIN_RECEIPTS; i++) w.submitted('c', [`${(255 + i).toString(16)}`]);
    t += 500;
    // The receipts write the ids in decimal: no latency is taken from them (never a wrong one).
    for (let i = 0; i < HEALTH_MIN_RECEIPTS; i++) w.record('c', 'DELIVRD', String(255 + i));
    // Another connection's receipt of the same id, an interim one, and one twice: none count.
    w.record('other', 'DELIVRD', 'ff');
    w.record('c', 'ACCEPTD', 'ff');
    expect(w.figures('c')).toEqual({ deliveredRatio: 1, finalReceipts: 20 });
    for (let i = 0; i < HEALTH_MIN_RECEIPTS; i++) w.record('c', 'DELIVRD', (255 + i).toString(16));
    for (let i = 0; i < HEALTH_MIN_RECEIPTS; i++) w.record('c', 'DELIVRD', (255 + i).toString(16));
    expect(w.figures('c').receiptP50Ms).toBe(500);
  });

  it('forgets latencies older than the window', () => {
    let t = 0;
    const w = new ConnectionHealthWindow(() => t);
    for (let i = 0; i < HEALTH_MIN_RECEIPTS; i++) {
      w.submitted('c', [`x${i}`]);
      t += 10;
      w.record('c', 'DELIVRD', `x${i}`);
    }
    expect(w.figures('c').receiptP50Ms).toBe(10);
    t += HEALTH_WINDOW_MINUTES * 60_000 + 1;
    expect(w.figures('c')).toEqual({ finalReceipts: 0 });
  });
});
