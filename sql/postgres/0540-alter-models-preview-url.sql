-- A model's preview URL template (`https://site.example/{slug}?preview={token}`): a preview link
-- of one of its entries fills it with the entry's values and a short-lived preview token.
ALTER TABLE models ADD COLUMN preview_url text;
