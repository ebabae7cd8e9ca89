-- A token may carry a role instead of scopes (a built-in role name or `custom:<id>`; its scopes
-- are then derived from the role's rules and `scopes` is empty), or belong to a member: a
-- personal access token acts as that person under their membership's role at the time of use,
-- and stops working when the membership ends.
ALTER TABLE tokens ADD COLUMN role text;
ALTER TABLE tokens ADD COLUMN person_id text REFERENCES people (id) ON DELETE CASCADE;
CREATE INDEX tokens_person ON tokens (person_id, org_id, created_at) WHERE person_id IS NOT NULL;
