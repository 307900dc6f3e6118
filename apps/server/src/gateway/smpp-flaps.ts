import type { Logger } from '../platform/logger';
import type { SmppBind } from './smpp-bind';
import type { ResolvedConnectionConfig } from './smpp-config';

/** A session of another bind must have bound at most this long before the close it caused. */
export const REPLACED_WITHIN_MS = 2000;
/**
 * A flap is classified this long after the close: the other session's bind_resp and this close come
 * on two sockets in either order, and when the SMSC crashed, the other sessions' closes come by then.
 */
export const CLASSIFY_AFTER_MS = 200;

/** What the flap monitor needs of its connection. */
export interface FlapHost {
  readonly name: string;
  readonly cfg: ResolvedConnectionConfig;
  /** Sessions in use (not the ones put aside by keeping fewer binds). */
  active(): readonly SmppBind[];
  /** Keep only the bind of `keeper` (its transceiver, or its tx + rx pair): stop the others. */
  keepOnly(keeper: SmppBind): void;
}

/** A flap waiting for its classification: the sessions that may have replaced it, by generation. */
interface Pending {
  bind: SmppBind;
  boundAt: number;
  closedAt: number;
  witnesses: Map<SmppBind, number>;
  timer: NodeJS.Timeout;
}

/** The sentence the console and the log give when the connection keeps one bind. */
export function keptBindsNotice(cfg: ResolvedConnectionConfig, kept: number, replaced: number): string {
  const unit = cfg.bindMode === 'tx+rx' ? 'tx+rx pair' : 'bind';
  return (
    `Keeping ${kept} of ${cfg.binds} binds: each new bind made the SMSC close an older session ` +
    `(${replaced} times), so it allows one session per system_id/system_type (as Kannel's opensmppbox ` +
    `does). Set SMSC_BINDS=1 (or "binds": 1 for ${cfg.name} in SMSC_CONNECTIONS), or give each ${unit} ` +
    `its own system_type; more binds are tried again only after a restart with a changed binds setting.`
  );
}

/**
 * Flap classification of one connection, and what follows from it: the flapping warning and keeping
 * one bind.
 *
 * A flap (SmppBind) is a session the SMSC closed within flapSeconds of binding. It is a
 * *replacement*, the "multiple login" pattern of an SMSC that allows one session per
 * system_id/system_type, when another session of the connection with the same role bound after it,
 * at most REPLACED_WITHIN_MS before the close, and that session outlived the close: it is still bound
 * CLASSIFY_AFTER_MS later, or it ended more than simultaneousMs after it (with fast reconnects the
 * flapped bind may have rebound and replaced it in turn by then). An SMSC that crashes (every
 * session drops at once) or drops a new session while the older one stays is no replacement: such
 * flaps only slow the reconnects.
 *
 * After keepOneBindAfter replacements in a row the connection keeps one bind (the one whose session
 * survived) until it is configured again; the run starts over once every session in use has stayed
 * bound flapSeconds at the same time.
 */
export class FlapMonitor {
  /** Replacements in all. */
  replaced = 0;
  /** Binds kept after replacements (null: every configured bind is in use). */
  kept: number | null = null;
  private run = 0;
  private lastWarning = -Infinity;
  private readonly pending = new Set<Pending>();

  constructor(
    private readonly host: FlapHost,
    private readonly log: Logger,
  ) {}

  /** Flaps since the sessions in use last stayed up, over the connection. */
  get recentFlaps(): number {
    return this.host.active().reduce((n, b) => n + b.recentFlaps, 0);
  }

  get notice(): string | null {
    return this.kept === null ? null : keptBindsNotice(this.host.cfg, this.kept, this.replaced);
  }

  /** Closes this close apart are one event (a crash), shorter than the quickest reconnect and bind. */
  private get simultaneousMs(): number {
    return Math.min(CLASSIFY_AFTER_MS, this.host.cfg.reconnectBaseMs / 4);
  }

  /** `bind`'s session, bound at `boundAt`, was closed by the SMSC within flapSeconds of binding. */
  flapped(bind: SmppBind, boundAt: number): void {
    const witnesses = new Map<SmppBind, number>();
    for (const b of this.host.active())
      if (b !== bind && b.role === bind.role) witnesses.set(b, b.generation);
    const item: Pending = { bind, boundAt, closedAt: this.host.cfg.now(), witnesses, timer: undefined! };
    item.timer = setTimeout(() => {
      const by = [...witnesses].find(([b, g]) => b.generation === g && b.bound && this.inWindow(item, b));
      this.resolve(item, by?.[0]);
    }, CLASSIFY_AFTER_MS);
    this.pending.add(item);
  }

  /** A session of `bind` (its generation `generation`, bound at `boundAt` if it bound) ended. */
  ended(bind: SmppBind, generation: number, boundAt: number | undefined): void {
    const now = this.host.cfg.now();
    for (const item of [...this.pending]) {
      if (item.witnesses.get(bind) !== generation) continue;
      item.witnesses.delete(bind);
      const outlived = now - item.closedAt > this.simultaneousMs;
      if (boundAt !== undefined && outlived && this.inWindow(item, bind, boundAt)) this.resolve(item, bind);
      else if (item.witnesses.size === 0) this.resolve(item, undefined);
    }
  }

  /** A session of the connection stayed bound flapSeconds. */
  stable(): void {
    const since = this.host.cfg.now() - this.host.cfg.flapSeconds * 1000;
    const all = this.host.active().every((b) => b.bound && (b.lastBoundAt?.getTime() ?? Infinity) <= since);
    if (all) this.run = 0;
  }

  /** Forget flaps not yet classified (the connection closes). */
  close(): void {
    for (const item of this.pending) clearTimeout(item.timer);
    this.pending.clear();
  }

  /** `witness` bound (at `at`) after the flapped session did, shortly before its close. */
  private inWindow(item: Pending, witness: SmppBind, at = witness.lastBoundAt?.getTime()): boolean {
    return at !== undefined && at > item.boundAt && at >= item.closedAt - REPLACED_WITHIN_MS;
  }

  private resolve(item: Pending, by: SmppBind | undefined): void {
    if (!this.pending.delete(item)) return;
    clearTimeout(item.timer);
    if (by) {
      this.replaced++;
      this.run++;
      item.bind.noteReplaced(by.label);
      const after = this.host.cfg.keepOneBindAfter;
      const binds = new Set(this.host.active().map((b) => b.index)).size;
      if (after > 0 && this.run >= after && binds > 1) return this.keepOne(by);
    }
    this.warnFlapping(by !== undefined);
  }

  private keepOne(keeper: SmppBind): void {
    this.host.keepOnly(keeper);
    this.kept = 1;
    this.lastWarning = this.host.cfg.now();
    const { binds, bindMode, systemId, systemType } = this.host.cfg;
    this.log.warn(
      {
        connection: this.host.name,
        binds,
        keptBinds: 1,
        kept: keeper.index,
        bindMode,
        systemId,
        systemType,
        replacedSessions: this.replaced,
        setting: 'SMSC_BINDS',
      },
      `SMPP connection ${this.host.name} keeps 1 bind: ${this.notice ?? ''}`,
    );
  }

  /**
   * After flapWarnAfter flaps in a row, one warning names the likely causes, by what the flaps were;
   * it is repeated at most every flapWarnIntervalSeconds.
   */
  private warnFlapping(replaced: boolean): void {
    const recent = this.recentFlaps;
    const now = this.host.cfg.now();
    const { binds, bindMode, systemId, systemType, flapSeconds } = this.host.cfg;
    if (recent < this.host.cfg.flapWarnAfter) return;
    if (now - this.lastWarning < this.host.cfg.flapWarnIntervalSeconds * 1000) return;
    this.lastWarning = now;
    const sessions = this.host.active().length;
    const causes = replaced
      ? `each new bind made the SMSC close an older session: it allows one session per ` +
        `system_id/system_type (use binds: 1, or a distinct system_type per bind; lower SMSC_BINDS / binds)`
      : `no older session was closed when they bound, so this is not a limit of one session per ` +
        `system_id/system_type: the SMSC or the link may be failing (sessions crashing, restarts), or it ` +
        `allows this account fewer sessions (${binds} ${bindMode === 'tx+rx' ? 'tx+rx pairs' : 'transceivers'}` +
        `: lower SMSC_BINDS / binds)`;
    this.log.warn(
      {
        connection: this.host.name,
        recentFlaps: recent,
        binds,
        bindMode,
        sessions,
        systemId,
        systemType,
        replacedSessions: this.replaced,
      },
      `SMPP connection ${this.host.name} is flapping: the SMSC closed ${recent} sessions within ` +
        `${flapSeconds} s of binding; ${causes}. Reconnects back off until a session stays bound ${flapSeconds} s.`,
    );
  }
}
