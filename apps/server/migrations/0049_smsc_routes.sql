-- Routes (issue 38): which SMPP connections a destination may go through, in which order. A route
-- matches a destination prefix (longest first), optionally limited to an account, a rate plan, a
-- lane or a sender; its entries list connections (by name, as configured) with a carrier cost per
-- segment in millionths of the currency unit (0.0042 → 4200), a priority and a weight. The strategy
-- orders them per message (gateway/routing/route-table.ts).
-- smsc_routes_version: one row, bumped in the transaction of every change; each worker reads it
-- every 2 s and loads the routes again when it moved (gateway/routing/route-refresh.ts).
CREATE TABLE smsc_routes (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL UNIQUE CHECK (length(name) BETWEEN 1 AND 80),
  prefix text NOT NULL CHECK (prefix ~ '^\+[0-9]{0,15}$'),
  account_id uuid REFERENCES accounts(id) ON DELETE CASCADE,
  rate_plan_id uuid REFERENCES rate_plans(id) ON DELETE CASCADE,
  lane text CHECK (lane IN ('otp', 'single', 'bulk')),
  sender text CHECK (length(sender) BETWEEN 1 AND 15),
  strategy text NOT NULL CHECK (strategy IN ('priority', 'weighted', 'least_cost', 'quality')),
  quality_floor numeric(4, 3) CHECK (quality_floor BETWEEN 0 AND 1),
  cost_ceiling_micros bigint CHECK (cost_ceiling_micros >= 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- One route per prefix and filters: two would make the choice between them arbitrary.
CREATE UNIQUE INDEX smsc_routes_match ON smsc_routes (
  prefix,
  coalesce(account_id, '00000000-0000-0000-0000-000000000000'::uuid),
  coalesce(rate_plan_id, '00000000-0000-0000-0000-000000000000'::uuid),
  coalesce(lane, ''),
  coalesce(sender, '')
);

CREATE TABLE smsc_route_entries (
  route_id uuid NOT NULL REFERENCES smsc_routes(id) ON DELETE CASCADE,
  connection text NOT NULL,
  cost_micros bigint NOT NULL CHECK (cost_micros >= 0),
  priority integer NOT NULL DEFAULT 0,
  weight integer NOT NULL DEFAULT 1 CHECK (weight >= 0),
  PRIMARY KEY (route_id, connection)
);

CREATE TABLE smsc_routes_version (
  one boolean PRIMARY KEY DEFAULT true CHECK (one),
  version bigint NOT NULL
);
INSERT INTO smsc_routes_version VALUES (true, 0);
