import type { Kysely } from 'kysely';
import type { DB } from '../db/schema';

/** A Kysely handle on Wren's schema: the pool, or a transaction (its own file, so copy.ts and db.ts need not import each other). */
export type Db = Kysely<DB>;
