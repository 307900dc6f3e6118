-- Delivery shaping (issue 41 item 3). A campaign may send in batches (batch_size messages, then a
-- pause of batch_pause_seconds) and at a rate of its own per destination prefix (prefix_rates:
-- [{"prefix":"44","perMinute":100}], the longest prefix of a number wins).
-- shaping: the materialiser's cursor, {"start": epoch ms the batch schedule counts from,
-- "prefixes": {"44": {"at": epoch ms the prefix's next message is due, "n": messages given a time}}}.
-- prefix_counts: recipients per shaped prefix at acceptance, for the projected finish.
ALTER TABLE bulk_campaigns
  ADD COLUMN batch_size integer CHECK (batch_size > 0),
  ADD COLUMN batch_pause_seconds integer CHECK (batch_pause_seconds > 0),
  ADD COLUMN prefix_rates jsonb,
  ADD COLUMN prefix_counts jsonb,
  ADD COLUMN shaping jsonb,
  ADD CONSTRAINT bulk_campaigns_batch_both CHECK ((batch_size IS NULL) = (batch_pause_seconds IS NULL));
