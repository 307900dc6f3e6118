-- Contact imports run as pg-boss jobs (platform/jobs.ts), so any node with the jobs role can run
-- one and a restart never strands it. `runner` is the job that holds a running import (its
-- heartbeat_at is renewed after every batch); `attempts` counts runs, so an import whose runner
-- keeps dying is failed with a reason instead of being retried forever.
ALTER TABLE contact_imports
  ADD COLUMN runner text,
  ADD COLUMN attempts integer NOT NULL DEFAULT 0;
