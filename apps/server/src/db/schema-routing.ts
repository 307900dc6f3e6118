import type { ColumnType, Generated } from 'kysely';

/** Routes and their connections (0049_smsc_routes.sql; gateway/routing/route-table.ts). */
export interface RoutingTables {
  smsc_routes: {
    id: Generated<string>;
    name: string;
    prefix: string;
    account_id: string | null;
    rate_plan_id: string | null;
    lane: string | null;
    sender: string | null;
    strategy: string;
    /** numeric(4,3): pg answers it as text. */
    quality_floor: ColumnType<string | null, string | number | null, string | number | null>;
    /** bigint: pg answers it as text. */
    cost_ceiling_micros: ColumnType<string | null, number | null, number | null>;
    created_at: Generated<Date>;
    updated_at: ColumnType<Date, Date | undefined, Date>;
  };
  smsc_route_entries: {
    route_id: string;
    connection: string;
    cost_micros: ColumnType<string, number, number>;
    priority: number;
    weight: number;
  };
  smsc_routes_version: {
    one: Generated<boolean>;
    version: ColumnType<string, number, never>;
  };
  /** Carrier connections (0052_smsc_connections.sql; modules/routing/connection-store.ts). */
  smsc_connections: {
    name: string;
    origin: 'env' | 'console';
    /** The console's settings (contracts/connections.ts), without the password. */
    settings: ColumnType<unknown, string, string>;
    password_enc: string;
    draining: Generated<boolean>;
    created_at: Generated<Date>;
    updated_at: ColumnType<Date, Date | undefined, Date>;
    updated_by: string | null;
  };
  smsc_connections_version: {
    one: Generated<boolean>;
    version: ColumnType<string, number, never>;
  };
}
