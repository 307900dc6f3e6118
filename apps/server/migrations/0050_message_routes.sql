-- Routing decisions (issue 38): for each message a route sent, the connection it went through, the
-- route and strategy that chose it, and the carrier's cost, for the margin report (price against
-- cost by country, connection and day) and the SMS log's operator columns. Written with the
-- message's move to `sent`, in the same transaction; a message no route matched has no row.
-- cost_micros: the carrier's price per segment in millionths of the currency unit (0.0042 → 4200);
-- segments: the parts the SMSC accepted. No foreign key (messages are partitioned, 0018): retention
-- deletes these with their messages (modules/messages/partitions.ts).
CREATE TABLE message_routes (
  message_id uuid NOT NULL,
  routed_at timestamptz NOT NULL DEFAULT now(),
  connection text NOT NULL,
  route_name text NOT NULL,
  strategy text NOT NULL,
  cost_micros bigint NOT NULL CHECK (cost_micros >= 0),
  segments integer NOT NULL CHECK (segments > 0),
  PRIMARY KEY (message_id, routed_at)
);
CREATE INDEX message_routes_day ON message_routes (routed_at);
-- Routes limited to a rate plan match by the sending account's plan: each node reads the accounts
-- on the plans routes name every 2 s (gateway/routing/route-refresh.ts).
CREATE INDEX accounts_rate_plan ON accounts (rate_plan_id) WHERE rate_plan_id IS NOT NULL;
