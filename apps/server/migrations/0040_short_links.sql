-- Tracked short links (issue 41 item 2). A campaign with tracked links stores the link base it was
-- accepted with (its segments and prices were counted with that length); NULL: links untouched.
ALTER TABLE bulk_campaigns
  ADD COLUMN link_base text,
  ADD COLUMN link_clicks integer NOT NULL DEFAULT 0,
  ADD COLUMN link_unique_clicks integer NOT NULL DEFAULT 0;

-- One row per URL per recipient's message: `code` is 72 random bits in base64url.
CREATE TABLE short_links (
  code text PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  campaign_id uuid NOT NULL,
  message_id uuid NOT NULL,
  url text NOT NULL,
  clicks integer NOT NULL DEFAULT 0,
  first_clicked_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX short_links_campaign ON short_links (campaign_id);
CREATE INDEX short_links_expires ON short_links (expires_at);

-- Each click: when, and a coarse device and country; never the IP.
CREATE TABLE link_clicks (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  code text NOT NULL REFERENCES short_links (code) ON DELETE CASCADE,
  campaign_id uuid NOT NULL,
  clicked_at timestamptz NOT NULL,
  device text NOT NULL,
  country text
);
CREATE INDEX link_clicks_campaign ON link_clicks (campaign_id, clicked_at);
