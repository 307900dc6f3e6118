import type { ColumnType, Generated } from 'kysely';
import type { NullableTimestamp } from './schema-columns';

/** A nullable column that inserts may leave out. */
type Optional<T> = ColumnType<T | null, T | null | undefined, T | null>;

/** Sub-accounts for resellers (issue 39 item 4, migration 0034). */
export interface SubAccountTables {
  sub_account_country_markups: {
    account_id: string;
    /** The parent's rate plan's country label of a price row (e.g. 'GB', 'US/CA'). */
    country: string;
    markup_bp: number;
  };
}

declare module './schema' {
  interface AccountsTable {
    /** Set on a child account: the reseller's account (one level deep). */
    parent_account_id: Optional<string>;
    /** The parent's lock of the child: its sends and API calls are refused. */
    parent_locked_at: NullableTimestamp;
    parent_locked_reason: Optional<string>;
    /** The child's markup on the parent's prices, in basis points (0: the parent's own prices). */
    child_markup_bp: Generated<number>;
  }
}
