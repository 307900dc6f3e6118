import pg from 'pg';

/**
 * Calls `see` with the text of every statement any node-postgres client of this test process sends
 * (the in-process server's included), before it is sent, and the client (connection) that sends it:
 * a test about one request's statements tells them from background work's by it. Kysely passes the
 * text; a statement the statement cache has named arrives as a config object.
 */
export function onEveryStatement(see: (text: string, client: pg.Client) => void) {
  const prototype = pg.Client.prototype as unknown as {
    query: (this: pg.Client, ...args: unknown[]) => unknown;
  };
  const query = prototype.query;
  prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const first = args[0] as string | { text?: unknown } | undefined;
    see(typeof first === 'string' ? first : typeof first?.text === 'string' ? first.text : '', this);
    return query.apply(this, args);
  };
}
