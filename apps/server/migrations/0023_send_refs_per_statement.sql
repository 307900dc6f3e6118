-- The references of a sent message (its account, user and campaign) and of its API record (account
-- and key) are checked once per statement instead of once per row.
--
-- A foreign key is checked by one trigger call and one probe of the parent per inserted row, and a
-- send's rows all name the same account, user and key. On a batch of 2,000 API sends (bench:api,
-- 100 recipients per request) those checks took 15.6 µs of PostgreSQL's time per recipient: the
-- messages' account and user keys 8.1 µs, the API records' account and key 7.5 µs, about a third of
-- what the batch cost. The statement triggers below check each distinct parent of a statement once
-- (1.4–2.4 ms for a 2,000-row statement of messages under EXPLAIN ANALYZE on PostgreSQL 15, about
-- 1 µs a row) and keep what the constraints guaranteed:
--   * an insert names existing parents, which are locked FOR KEY SHARE until the transaction ends,
--     as a foreign key check locks them, so they cannot be deleted meanwhile (SQLSTATE 23503,
--     "insert or update on table … violates foreign key constraint …");
--   * a message or API record never moves to another parent (the app never does it);
--   * deleting a parent keeps the old actions: an account or a campaign that messages or API
--     records still name cannot be deleted (NO ACTION), a deleted user's messages keep no user
--     (SET NULL), a deleted key's API records go with it (CASCADE).
-- Accounts, users, campaigns and keys are never deleted by the app (a key is revoked), so the
-- delete side is a guard for an operator's hand.

ALTER TABLE messages
  DROP CONSTRAINT messages_account_id_fkey,
  DROP CONSTRAINT messages_user_id_fkey,
  DROP CONSTRAINT messages_campaign_id_fkey;
ALTER TABLE api_messages
  DROP CONSTRAINT api_messages_account_id_fkey,
  DROP CONSTRAINT api_messages_api_key_id_fkey;

-- Raises the error of a foreign key for the first of `ids` that `parent` does not have (called only
-- once a check has found one missing: its dynamic SQL is planned on every call).
CREATE FUNCTION wren_missing_parent(child text, parent regclass, ids uuid[]) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  missing uuid;
BEGIN
  EXECUTE format('SELECT x FROM unnest($1) x WHERE NOT EXISTS (SELECT 1 FROM %s p WHERE p.id = x) LIMIT 1', parent)
    INTO missing USING ids;
  RAISE foreign_key_violation USING
    MESSAGE = format('insert or update on table "%s" violates foreign key constraint "%s_%s_ref"', child, child, parent),
    DETAIL = format('Key (id)=(%s) is not present in table "%s".', missing, parent);
END $$;

-- Each check is static SQL, planned once per connection: the distinct parents of the statement's
-- rows in one pass, then each kind of parent locked FOR KEY SHARE, as a foreign key check locks
-- them, and counted. The trigger costs a statement a fixed 20 µs or so more than the keys cost one
-- row (a loop of one-row inserts: 75 µs each with the keys, 97 with this), so it wins from about
-- three rows per statement on; the send batcher's statements grow with the load (29 rows on average
-- in bench:pipeline, 2,000 in bench:api's bulk phase).
CREATE FUNCTION wren_messages_refs() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  acc uuid[];
  usr uuid[];
  cmp uuid[];
  n bigint;
BEGIN
  SELECT array_agg(DISTINCT account_id),
         coalesce(array_agg(DISTINCT user_id) FILTER (WHERE user_id IS NOT NULL), '{}'),
         coalesce(array_agg(DISTINCT campaign_id) FILTER (WHERE campaign_id IS NOT NULL), '{}')
    INTO acc, usr, cmp
    FROM new_rows;
  SELECT count(*) INTO n FROM (SELECT 1 FROM accounts WHERE id = ANY (acc) FOR KEY SHARE) p;
  IF n < cardinality(acc) THEN
    PERFORM wren_missing_parent('messages', 'accounts', acc);
  END IF;
  IF cardinality(usr) > 0 THEN
    SELECT count(*) INTO n FROM (SELECT 1 FROM users WHERE id = ANY (usr) FOR KEY SHARE) p;
    IF n < cardinality(usr) THEN
      PERFORM wren_missing_parent('messages', 'users', usr);
    END IF;
  END IF;
  IF cardinality(cmp) > 0 THEN
    SELECT count(*) INTO n FROM (SELECT 1 FROM campaigns WHERE id = ANY (cmp) FOR KEY SHARE) p;
    IF n < cardinality(cmp) THEN
      PERFORM wren_missing_parent('messages', 'campaigns', cmp);
    END IF;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER messages_refs AFTER INSERT ON messages
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION wren_messages_refs();

CREATE FUNCTION wren_api_messages_refs() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  acc uuid[];
  keys uuid[];
  n bigint;
BEGIN
  SELECT array_agg(DISTINCT account_id), array_agg(DISTINCT api_key_id) INTO acc, keys FROM new_rows;
  SELECT count(*) INTO n FROM (SELECT 1 FROM accounts WHERE id = ANY (acc) FOR KEY SHARE) p;
  IF n < cardinality(acc) THEN
    PERFORM wren_missing_parent('api_messages', 'accounts', acc);
  END IF;
  SELECT count(*) INTO n FROM (SELECT 1 FROM api_keys WHERE id = ANY (keys) FOR KEY SHARE) p;
  IF n < cardinality(keys) THEN
    PERFORM wren_missing_parent('api_messages', 'api_keys', keys);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER api_messages_refs AFTER INSERT ON api_messages
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION wren_api_messages_refs();

-- A row keeps its parents (a user may only be cleared, as deleting the user does).
CREATE FUNCTION wren_refs_fixed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE foreign_key_violation USING
    MESSAGE = format('insert or update on table "%s" violates foreign key constraint "%s_refs_fixed"',
                     TG_TABLE_NAME, TG_TABLE_NAME),
    DETAIL = 'A row''s account, user, campaign and API key cannot be changed.';
END $$;

CREATE TRIGGER messages_refs_fixed BEFORE UPDATE OF account_id, user_id, campaign_id ON messages
  FOR EACH ROW
  WHEN (NEW.account_id IS DISTINCT FROM OLD.account_id
        OR NEW.campaign_id IS DISTINCT FROM OLD.campaign_id
        OR (NEW.user_id IS NOT NULL AND NEW.user_id IS DISTINCT FROM OLD.user_id))
  EXECUTE FUNCTION wren_refs_fixed();

CREATE TRIGGER api_messages_refs_fixed BEFORE UPDATE OF account_id, api_key_id ON api_messages
  FOR EACH ROW
  WHEN (NEW.account_id IS DISTINCT FROM OLD.account_id OR NEW.api_key_id IS DISTINCT FROM OLD.api_key_id)
  EXECUTE FUNCTION wren_refs_fixed();

-- The parents' side. A BEFORE row trigger runs once the row is locked, so a send still in flight
-- (holding its KEY SHARE lock) has committed or rolled back by then, and its rows are seen.
CREATE FUNCTION wren_account_unreferenced() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.id = OLD.id THEN
    RETURN NEW;
  END IF;
  IF EXISTS (SELECT 1 FROM messages WHERE account_id = OLD.id)
     OR EXISTS (SELECT 1 FROM api_messages WHERE account_id = OLD.id) THEN
    RAISE foreign_key_violation USING
      MESSAGE = 'update or delete on table "accounts" violates foreign key constraint "messages_accounts_ref"',
      DETAIL = format('Key (id)=(%s) is still referenced from table "messages".', OLD.id);
  END IF;
  RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
END $$;

CREATE TRIGGER accounts_messages_ref BEFORE DELETE OR UPDATE OF id ON accounts
  FOR EACH ROW EXECUTE FUNCTION wren_account_unreferenced();

CREATE FUNCTION wren_campaign_unreferenced() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.id = OLD.id THEN
    RETURN NEW;
  END IF;
  IF EXISTS (SELECT 1 FROM messages WHERE campaign_id = OLD.id) THEN
    RAISE foreign_key_violation USING
      MESSAGE = 'update or delete on table "campaigns" violates foreign key constraint "messages_campaigns_ref"',
      DETAIL = format('Key (id)=(%s) is still referenced from table "messages".', OLD.id);
  END IF;
  RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
END $$;

CREATE TRIGGER campaigns_messages_ref BEFORE DELETE OR UPDATE OF id ON campaigns
  FOR EACH ROW EXECUTE FUNCTION wren_campaign_unreferenced();

CREATE FUNCTION wren_user_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE messages SET user_id = NULL WHERE user_id = OLD.id;
  RETURN NULL;
END $$;

CREATE TRIGGER users_messages_ref AFTER DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION wren_user_deleted();

CREATE FUNCTION wren_api_key_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM api_messages WHERE api_key_id = OLD.id;
  RETURN NULL;
END $$;

CREATE TRIGGER api_keys_api_messages_ref AFTER DELETE ON api_keys
  FOR EACH ROW EXECUTE FUNCTION wren_api_key_deleted();
