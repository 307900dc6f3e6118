/** bench:peer's settings, from its arguments and environment (see peer.ts's header). */
export const N = Number(process.argv[2] ?? process.env.BENCH_N ?? 20_000);
export const CONCURRENCY = Number(process.argv[3] ?? process.env.BENCH_CONCURRENCY ?? 50);
export const WINDOW = 100;
export const FINAL_TIMEOUT_MS = Number(process.env.BENCH_FINAL_TIMEOUT_S ?? 120) * 1000;
export const ONLY = process.env.BENCH_PEER_ONLY;
export const WARMUP = Number(process.env.BENCH_WARMUP ?? 10_000);
/** BENCH_DB=embedded: Wren on its embedded PostgreSQL instead of a fresh database on BENCH_DATABASE_URL. */
export const EMBEDDED = process.env.BENCH_DB === 'embedded';
export const BASE_DB = process.env.BENCH_DATABASE_URL ?? 'postgres://wren_ci:wren_ci@127.0.0.1:5432/postgres';
