-- The web origins whose pages may call Folio with this organization's tokens (CORS); NULL: any.
ALTER TABLE organizations ADD COLUMN allowed_origins text[];
