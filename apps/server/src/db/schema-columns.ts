import type { ColumnType } from 'kysely';

/** Column types every table file of the schema uses (kept apart so the table files need not import schema.ts). */
export type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
export type NullableTimestamp = ColumnType<
  Date | null,
  Date | string | null | undefined,
  Date | string | null
>;
