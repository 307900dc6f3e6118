-- The SMS log filtered by a broad recipient prefix (an area code: '+1415'), newest first. The
-- recipient index (0018) is ordered by number, so thousands of matches had to be read and sorted;
-- the log index is ordered by time but holds no number, so a prefix whose messages come in bursts
-- (a campaign to one area) read tens of thousands of rows per monthly partition before the first
-- match (bench:log, 10M messages: p50 252 ms). This index is ordered by time within the first five
-- characters of the number ('+' and four digits: a country and area code, or a mobile range): a
-- prefix of five characters is a seek in the keyset's order, and a longer one walks it in that
-- order, testing the number kept in the index (INCLUDE) without reading rows.
CREATE INDEX messages_log_head_idx
  ON messages (account_id, left(recipient, 5), created_at DESC, id DESC) INCLUDE (recipient);
