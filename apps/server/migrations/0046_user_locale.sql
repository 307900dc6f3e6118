-- The language a user reads the web app in (issue 47 item 4), chosen in the profile; en-US is the
-- default (SPEC.md §9). The list is LOCALES in the contracts.
ALTER TABLE users ADD COLUMN locale text NOT NULL DEFAULT 'en-US'
  CHECK (locale IN ('en-US', 'es', 'fr', 'pt-BR', 'ar'));
