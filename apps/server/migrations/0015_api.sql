-- Developer API (issue #13), second part.
-- An Idempotency-Key record is named by its creation time as well as its key (a fence: the answer
-- is stored with the send in one transaction only if the record is still the one the request made).
-- Millisecond precision, so the value the server reads back compares equal to the stored one.
ALTER TABLE idempotency_keys ALTER COLUMN created_at TYPE timestamptz(3);

-- Final-status events for every message of an account with a webhook URL (web sends and campaigns
-- too, not only /v1 sends). When a message reaches a final status, a trigger queues it here in the
-- same transaction (exact: no window of a time-based scan to miss), if its account has a URL and the
-- message was not sent through /v1 (those follow api_messages: their URL is fixed at send time). The
-- webhook sweep turns the queue into deliveries. The cost on the status path: one primary-key
-- lookup per final message (two when the account has a URL).
CREATE TABLE webhook_status_outbox (
  message_id uuid PRIMARY KEY,
  account_id uuid NOT NULL,
  queued_at timestamptz(3) NOT NULL DEFAULT now()
);

CREATE FUNCTION queue_status_webhook() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM webhook_settings s WHERE s.account_id = NEW.account_id AND s.url IS NOT NULL)
     AND NOT EXISTS (SELECT 1 FROM api_messages a WHERE a.message_id = NEW.id) THEN
    INSERT INTO webhook_status_outbox (message_id, account_id) VALUES (NEW.id, NEW.account_id)
    ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER messages_status_webhook_on_update AFTER UPDATE OF status ON messages
  FOR EACH ROW
  WHEN (NEW.done_at IS NOT NULL AND OLD.done_at IS NULL)
  EXECUTE FUNCTION queue_status_webhook();
CREATE TRIGGER messages_status_webhook_on_insert AFTER INSERT ON messages
  FOR EACH ROW
  WHEN (NEW.done_at IS NOT NULL)
  EXECUTE FUNCTION queue_status_webhook();

-- Rate limits across API nodes: requests per key per one-minute window, summed over the nodes. Each
-- node adds its new requests every fraction of a second (one batched upsert) and reads the total
-- back; windows older than a few minutes are deleted. No foreign key: a key's windows simply expire.
CREATE TABLE api_key_rate_windows (
  api_key_id uuid NOT NULL,
  window_start timestamptz(3) NOT NULL,
  requests integer NOT NULL,
  PRIMARY KEY (api_key_id, window_start)
);
