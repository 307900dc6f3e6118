-- Routing decisions, shared (issue 38, speed): a message a route sent names its decision by id in
-- the row's own update to `sent` (messages.route_decision), instead of a row of its own in
-- message_routes: one statement, one row and two index entries fewer per message (bench:pipeline).
-- A decision is the route, the strategy, the chosen connection, its cost per segment (millionths of
-- the currency unit) and the one line of why; messages of a batch mostly share one, and a worker
-- keeps the ids it has seen. `key` is the md5 of the five: the one row per distinct decision.
-- The carrier's cost of a message is cost_micros × messages.segments; its day, submitted_at.
CREATE TABLE route_decisions (
  id serial PRIMARY KEY,
  key text NOT NULL UNIQUE,
  connection text NOT NULL,
  route_name text NOT NULL,
  strategy text NOT NULL,
  cost_micros bigint NOT NULL CHECK (cost_micros >= 0),
  reason text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

ALTER TABLE messages ADD COLUMN route_decision integer;

INSERT INTO route_decisions (key, connection, route_name, strategy, cost_micros, reason)
SELECT DISTINCT md5(concat_ws(E'\x1f', connection, route_name, strategy, cost_micros::text, reason)),
       connection, route_name, strategy, cost_micros, reason
  FROM message_routes
ON CONFLICT (key) DO NOTHING;

UPDATE messages m
   SET route_decision = d.id
  FROM message_routes r
  JOIN route_decisions d
    ON d.key = md5(concat_ws(E'\x1f', r.connection, r.route_name, r.strategy, r.cost_micros::text, r.reason))
 WHERE r.message_id = m.id;

DROP TABLE message_routes;
