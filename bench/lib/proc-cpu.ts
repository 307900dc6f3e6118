import { readdirSync, readFileSync } from 'node:fs';

/** One process as /proc/<pid>/stat shows it; CPU in clock ticks. Linux only. */
export interface ProcStat {
  pid: number;
  ppid: number;
  command: string;
  /** utime + stime of the process itself (all its threads). */
  own: number;
  /** cutime + cstime: its children that have exited and been reaped. */
  reaped: number;
}

const CLOCK_TICKS_PER_SECOND = 100;

export function procStat(pid: number): ProcStat | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined; // exited, or not Linux
  }
  const command = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return {
    pid,
    ppid: Number(f[1]),
    command,
    own: Number(f[11]) + Number(f[12]),
    reaped: Number(f[13]) + Number(f[14]),
  };
}

export function allProcs(): ProcStat[] {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  return names
    .filter((p) => /^\d+$/.test(p))
    .map((p) => procStat(Number(p)))
    .filter((p): p is ProcStat => p !== undefined);
}

export function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
  } catch {
    return '';
  }
}

/** The process and all its live descendants. */
export function processTree(root: number, procs = allProcs()): ProcStat[] {
  const byParent = new Map<number, ProcStat[]>();
  for (const p of procs) byParent.set(p.ppid, [...(byParent.get(p.ppid) ?? []), p]);
  const out: ProcStat[] = [];
  const rootStat = procs.find((p) => p.pid === root);
  const stack = rootStat ? [rootStat] : [];
  while (stack.length) {
    const p = stack.pop()!;
    out.push(p);
    stack.push(...(byParent.get(p.pid) ?? []));
  }
  return out;
}

/**
 * CPU seconds of a process tree: every live process's own time plus the time of the children each
 * has reaped, so descendants that have exited (a closed PostgreSQL connection, esbuild) still count.
 * `filter` picks part of the tree (e.g. only the `postgres` processes of an embedded server).
 */
export function treeCpuSeconds(root: number, filter: (p: ProcStat) => boolean = () => true): number {
  return (
    processTree(root)
      .filter(filter)
      .reduce((sum, p) => sum + p.own + p.reaped, 0) / CLOCK_TICKS_PER_SECOND
  );
}

/**
 * CPU of a changing set of processes that are not our children (the backends of one database on a
 * shared PostgreSQL server): sampled every `intervalMs`, so a process that exits during the run loses
 * at most its last interval. Processes present at start() count from their value then, later ones
 * from zero.
 */
export class SampledCpu {
  private base = new Map<number, number>();
  private last = new Map<number, number>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly select: (procs: ProcStat[]) => ProcStat[],
    private readonly intervalMs = 200,
  ) {}

  start() {
    this.base.clear();
    this.last.clear();
    for (const p of this.select(allProcs())) {
      this.base.set(p.pid, p.own);
      this.last.set(p.pid, p.own);
    }
    this.timer = setInterval(() => this.sample(), this.intervalMs);
    this.timer.unref();
  }

  sample() {
    for (const p of this.select(allProcs())) this.last.set(p.pid, p.own);
  }

  /** CPU seconds since start(). */
  seconds() {
    this.sample();
    let ticks = 0;
    for (const [pid, value] of this.last) ticks += value - (this.base.get(pid) ?? 0);
    return ticks / CLOCK_TICKS_PER_SECOND;
  }

  /** Processes seen so far. */
  count() {
    return this.last.size;
  }

  stop() {
    clearInterval(this.timer);
  }
}

/** Backends of one database on a PostgreSQL server (ps title "postgres: … user db host(port) …"). */
export function backendsOf(database: string, exclude: () => number[] = () => []) {
  return (procs: ProcStat[]) => {
    const skip = new Set(exclude());
    return procs.filter(
      (p) => p.command === 'postgres' && !skip.has(p.pid) && cmdline(p.pid).split(' ').includes(database),
    );
  };
}

/** PostgreSQL's auxiliary processes (WAL writer, checkpointer, …): shared by every database of a server. */
export function postgresAuxiliaries(postmasterPid: number) {
  return (procs: ProcStat[]) =>
    procs.filter(
      (p) =>
        p.ppid === postmasterPid &&
        p.command === 'postgres' &&
        /: (walwriter|checkpointer|background writer|autovacuum launcher|logical replication launcher)/.test(
          cmdline(p.pid),
        ),
    );
}
