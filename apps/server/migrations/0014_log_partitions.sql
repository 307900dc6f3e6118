-- Issue #17: a campaign's messages in the SMS log's order (campaign detail pages, the campaign's
-- log filter and its CSV export). The keyset is the log's row comparison (created_at, id) < (c, i);
-- with id in the index it is an Index Cond, not a Filter over the campaign's rows. The index it
-- replaces, (campaign_id, created_at), is a prefix of this one: every query it served (counts and
-- sums per campaign) is served by this one, so it goes. Partial, like it: most messages are no
-- campaign's.
CREATE INDEX messages_campaign_keyset_idx
  ON messages (campaign_id, created_at DESC, id DESC)
  WHERE campaign_id IS NOT NULL;
DROP INDEX messages_campaign_idx;
