/**
 * Taking a connection out of a route's rotation when its delivered ratio falls below the route's
 * floor, and bringing it back with hysteresis (issue 38). One tracker per node, shared by every
 * decision: the state of a route's connection is judged on each decision that reads it, from the
 * same health figures routing uses, so there is one mechanism whatever the strategy.
 *
 * - Out: its delivered ratio over the health window is below the route's floor.
 * - Back: the ratio is at least the floor plus ROTATION_HYSTERESIS, or there are too few receipts
 *   in the window to tell (the bad ones aged out). A ratio between the two keeps the state it has.
 * - While out, it goes after the route's connections in rotation (it is the last resort when none
 *   of them can take traffic), and one message of the route in PROBE_EVERY goes to it first, so
 *   its ratio is measured again and it can come back.
 *
 * Each change is reported once (`onChange`): the worker logs and audits it.
 */

/** A connection comes back at the floor plus this (5 points): a ratio at the floor does not flap. */
export const ROTATION_HYSTERESIS = 0.05;
/** One message in this many of a route with a connection out of rotation probes that connection. */
export const PROBE_EVERY = 50;

export interface RotationChange {
  routeId: string;
  routeName: string;
  connection: string;
  out: boolean;
  /** The delivered ratio that decided it (undefined: too few receipts left in the window). */
  deliveredRatio: number | undefined;
  floor: number;
}

export interface RotationJudge {
  /** Whether the connection is out of the route's rotation now (the state moves with hysteresis). */
  isOut(
    route: { id: string; name: string },
    connection: string,
    ratio: number | undefined,
    floor: number,
  ): boolean;
  /** True once every PROBE_EVERY calls: this decision probes a connection out of rotation. */
  probe(): boolean;
}

export class RotationTracker implements RotationJudge {
  private readonly out = new Map<string, number>();
  private calls = 0;

  constructor(
    private readonly onChange: (change: RotationChange) => void = () => undefined,
    private readonly now: () => number = Date.now,
  ) {}

  isOut(
    route: { id: string; name: string },
    connection: string,
    ratio: number | undefined,
    floor: number,
  ): boolean {
    const key = `${route.id}\u0000${connection}`;
    const wasOut = this.out.has(key);
    const out = wasOut
      ? ratio !== undefined && ratio < floor + ROTATION_HYSTERESIS - 1e-9
      : ratio !== undefined && ratio < floor;
    if (out !== wasOut) {
      if (out) this.out.set(key, this.now());
      else this.out.delete(key);
      this.onChange({
        routeId: route.id,
        routeName: route.name,
        connection,
        out,
        deliveredRatio: ratio,
        floor,
      });
    }
    return out;
  }

  probe(): boolean {
    this.calls = (this.calls + 1) % PROBE_EVERY;
    return this.calls === 0;
  }

  /** When the route's connection went out of rotation (ms), or undefined when it is in. */
  outSince(routeId: string, connection: string): number | undefined {
    return this.out.get(`${routeId}\u0000${connection}`);
  }
}

/** Without a tracker (the console's route test): out exactly when below the floor, no probes. */
export const STATELESS_ROTATION: RotationJudge = {
  isOut: (_route, _connection, ratio, floor) => ratio !== undefined && ratio < floor,
  probe: () => false,
};
