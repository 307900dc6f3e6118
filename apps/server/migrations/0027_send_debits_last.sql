-- The one-statement send (messages.repository insertMessagesPaid) inserts its messages, queue rows
-- and API records first and debits the account last, so the account's row lock is held only for the
-- debit, its ledger entries and the commit: two sends of one account overlap, where debiting first
-- held the lock for the whole statement and the second waited for all of it (bench:api, 100
-- recipients per request, two 2,000-row statements in flight: pg_stat_activity found a backend
-- waiting on Lock:transactionid in 176 of 353 samples). When the balance does not cover the send,
-- this aborts the statement, and with it everything it inserted.
CREATE FUNCTION wren_send_refused() RETURNS bigint LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the balance does not cover this send' USING ERRCODE = 'WR402';
END $$;
