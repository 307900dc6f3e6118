import { spawn, type ChildProcess } from 'node:child_process';
import { repoRoot } from './wren-process';

/**
 * Fastify's own hello world in a Node process of its own (the floor a Wren route is measured
 * against): GET and POST / answer JSON; GET /redirect answers a 302, as a short link does.
 */
export async function startHello(port: number, databaseUrl?: string): Promise<ChildProcess> {
  // With a database: GET /l/:code also reads the link by primary key first (pg's pool, 10
  // connections as Wren's), the least a redirect from PostgreSQL can cost.
  const pgRoute = databaseUrl
    ? `const pg = (await import('pg')).default;
const pool = new pg.Pool({ connectionString: ${JSON.stringify(databaseUrl)}, max: 10, idleTimeoutMillis: 600000 });
app.get('/l/:code', async (req, reply) => {
  const r = await pool.query('SELECT url, campaign_id FROM short_links WHERE code = $1 AND expires_at > now()', [req.params.code]);
  return r.rows[0] ? reply.status(302).header('location', r.rows[0].url).send() : reply.status(404).send();
});`
    : '';
  const code = `import Fastify from 'fastify';
const app = Fastify({ logger: false });
${pgRoute}
app.get('/', async () => ({ hello: 'world' }));
app.post('/', async () => ({ hello: 'world' }));
app.get('/redirect', async (req, reply) => reply.status(302).header('location', 'https://example.com/').send());
await app.listen({ port: ${port}, host: '127.0.0.1' });`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', code], {
    cwd: `${repoRoot}/apps/server`,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const deadline = Date.now() + 20_000;
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/`)).ok) return child;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) throw new Error('hello-world did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
}
