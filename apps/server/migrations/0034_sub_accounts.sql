-- Sub-accounts for resellers (issue 39 item 4). A child is a normal account (its own balance,
-- members, sender IDs, keys and logs) with parent_account_id set; one level deep: a child has no
-- children, and an account that has a parent cannot become one (checked here and in the service).
ALTER TABLE accounts ADD COLUMN parent_account_id uuid REFERENCES accounts (id);
CREATE INDEX accounts_parent_idx ON accounts (parent_account_id, created_at) WHERE parent_account_id IS NOT NULL;

CREATE FUNCTION wren_sub_account_one_level() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.parent_account_id IS NOT NULL AND (
       NEW.parent_account_id = NEW.id
       OR EXISTS (SELECT 1 FROM accounts WHERE id = NEW.parent_account_id AND parent_account_id IS NOT NULL)
       OR EXISTS (SELECT 1 FROM accounts WHERE parent_account_id = NEW.id)) THEN
    RAISE EXCEPTION 'sub-accounts are one level deep' USING ERRCODE = 'WR409';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER accounts_sub_account_one_level BEFORE INSERT OR UPDATE OF parent_account_id ON accounts
  FOR EACH ROW EXECUTE FUNCTION wren_sub_account_one_level();

-- The parent's lock of a child (not an operator's lock: the child's members still sign in and see
-- the reason; its sends and API calls are refused).
ALTER TABLE accounts ADD COLUMN parent_locked_at timestamptz;
ALTER TABLE accounts ADD COLUMN parent_locked_reason text;

-- What the parent charges the child: its own rate plan's prices, plus markup_bp basis points
-- (10000 = 100 %), or a country's own markup from sub_account_country_markups. A child's price per
-- segment is ceil(parent price * (10000 + markup) / 10000) minor units (pricing.service.ts).
ALTER TABLE accounts ADD COLUMN child_markup_bp integer NOT NULL DEFAULT 0
  CHECK (child_markup_bp BETWEEN 0 AND 100000);

CREATE TABLE sub_account_country_markups (
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  -- The parent's rate plan's country label of a price row (e.g. 'GB', 'US/CA').
  country text NOT NULL,
  markup_bp integer NOT NULL CHECK (markup_bp BETWEEN 0 AND 100000),
  PRIMARY KEY (account_id, country)
);
