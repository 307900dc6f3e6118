-- Monthly statements (issue 39 item 5) read an account's ledger by time: the opening balance (the sum
-- before the month), the month's totals and its entries. (account_id, id DESC) made each of them read
-- every entry of the account; this one serves them from the index alone.
CREATE INDEX ledger_entries_account_time_idx ON ledger_entries (account_id, created_at) INCLUDE (amount_minor, id);
