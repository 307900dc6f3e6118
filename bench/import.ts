/**
 * Contact import benchmark: starts Wren (`wren start`, real HTTP API), signs up, creates a group and
 * imports generated CSV files of N contacts through the upload → commit → progress API, then exports
 * the group. Prints rows/s for each size, on the embedded PostgreSQL (Wren's default, a fresh
 * DATA_DIR) and, when DATABASE_URL is set, on that PostgreSQL (a fresh database on that server).
 *
 *   npm run bench:import -- [sizes…]        (default: 100000 1000000)
 *   DATABASE_URL=postgres://wren:wren@127.0.0.1:5432/postgres npm run bench:import
 */
import { toE164 } from '@wren/server/src/shared/phone';
import { embeddedDatabase, freshPostgres, signUp, startWren } from './lib/wren-process';

const SIZES = (process.argv.slice(2).length ? process.argv.slice(2) : ['100000', '1000000']).map(Number);
const PG_BASE = process.env.DATABASE_URL;

/** N unique, valid UK mobile numbers (checked with the server's toE164), with a name and a field. */
function csvOf(n: number): Buffer {
  const parts: string[] = ['Phone,Name,City\n'];
  let chunk = '';
  let made = 0;
  for (const prefix of ['+447400', '+447500', '+447800', '+447900']) {
    for (let i = 0; i < 1_000_000 && made < n; i++) {
      const phone = `${prefix}${String(i).padStart(6, '0')}`;
      if (toE164(phone, 'US') !== phone) continue;
      chunk += `${phone},Contact ${made},City ${made % 97}\n`;
      made += 1;
      if (chunk.length > 1 << 20) {
        parts.push(chunk);
        chunk = '';
      }
    }
  }
  if (made < n) throw new Error(`could only make ${made} valid numbers`);
  parts.push(chunk);
  return Buffer.from(parts.join(''));
}

async function api(
  base: string,
  headers: Record<string, string>,
  method: string,
  path: string,
  body?: unknown,
) {
  const { 'content-type': _json, ...bare } = headers;
  const res = await fetch(base + path, {
    method,
    headers: body === undefined ? bare : { ...bare, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

interface Result {
  rows: number;
  mb: number;
  uploadS: number;
  importS: number;
  inserted: number;
  slowestPollMs: number;
  exportS: number;
}

async function importOnce(base: string, headers: Record<string, string>, rows: number): Promise<Result> {
  const group = await api(base, headers, 'POST', '/api/groups', { name: `Bench ${rows} ${Date.now()}` });
  const file = csvOf(rows);
  const { 'content-type': _json, ...multipartHeaders } = headers;
  const form = new FormData();
  form.append('file', new Blob([file], { type: 'text/csv' }), `bench-${rows}.csv`);

  const t0 = performance.now();
  const up = await fetch(`${base}/api/groups/${group.id}/contacts/fileUpload`, {
    method: 'POST',
    headers: multipartHeaders,
    body: form,
  });
  const upload = (await up.json()) as { importId: string };
  if (up.status !== 201) throw new Error(`upload: ${up.status} ${JSON.stringify(upload)}`);
  const t1 = performance.now();
  await api(base, headers, 'POST', `/api/groups/${group.id}/imports/${upload.importId}/commit`, {});

  let slowest = 0;
  let status;
  for (;;) {
    await new Promise((r) => setTimeout(r, 250));
    const s = performance.now();
    await api(base, headers, 'GET', '/api/groups');
    status = await api(base, headers, 'GET', `/api/groups/${group.id}/imports/${upload.importId}`);
    slowest = Math.max(slowest, performance.now() - s);
    if (status.status !== 'running') break;
  }
  const t2 = performance.now();
  if (status.status !== 'completed') throw new Error(`import ${status.status}: ${status.error}`);
  if (status.inserted !== rows)
    throw new Error(`inserted ${status.inserted} of ${rows}: ${JSON.stringify(status)}`);

  const e0 = performance.now();
  const exported = await fetch(`${base}/api/groups/${group.id}/contacts/export`, { headers });
  const csv = await exported.text();
  const exportS = (performance.now() - e0) / 1000;
  const exportedRows = csv.split('\n').length - 2;
  if (exportedRows !== status.inserted) throw new Error(`exported ${exportedRows} of ${status.inserted}`);

  return {
    rows,
    mb: file.length / 1e6,
    uploadS: (t1 - t0) / 1000,
    importS: (t2 - t1) / 1000,
    inserted: status.inserted,
    slowestPollMs: slowest,
    exportS,
  };
}

function print(db: string, r: Result) {
  const total = r.uploadS + r.importS;
  console.log(
    [
      `${db.padEnd(10)} ${String(r.rows).padStart(9)} rows (${r.mb.toFixed(1)} MB)`,
      `upload ${r.uploadS.toFixed(1)} s`,
      `import ${r.importS.toFixed(1)} s`,
      `→ ${Math.round(r.inserted / total).toLocaleString('en-US')} rows/s end to end`,
      `(${Math.round(r.inserted / r.importS).toLocaleString('en-US')} rows/s import)`,
      `slowest API poll during import ${Math.round(r.slowestPollMs)} ms`,
      `export ${Math.round(r.inserted / r.exportS).toLocaleString('en-US')} rows/s`,
    ].join(', '),
  );
}

async function run(db: string, env: Record<string, string>) {
  const port = 3900 + Math.floor(Math.random() * 90);
  const child = await startWren({ IMPORT_MAX_BYTES: String(200 * 1024 * 1024), ...env }, port);
  try {
    const base = `http://127.0.0.1:${port}`;
    const { headers } = await signUp(base);
    for (const rows of SIZES) print(db, await importOnce(base, headers, rows));
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
}

async function main() {
  console.log(`contact import benchmark: ${SIZES.join(', ')} rows through the HTTP API`);
  const embedded = embeddedDatabase();
  try {
    await run('embedded', embedded.env);
  } finally {
    await embedded.drop();
  }
  if (PG_BASE) {
    const pg = await freshPostgres(PG_BASE, `wren_bench_import_${process.pid}`);
    try {
      await run('PostgreSQL', pg.env);
    } finally {
      await pg.drop();
    }
  } else {
    console.log('(set DATABASE_URL to also run on PostgreSQL)');
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
