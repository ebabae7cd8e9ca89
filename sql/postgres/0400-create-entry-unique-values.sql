-- Values of fields with a `unique` rule, one row per entry, field and locale ('' for the value in
-- `fields`), held by the entry that has it. The primary key is what enforces the rule: two
-- writers of the same value race on the insert and the database lets exactly one in, whatever
-- path wrote the entry. The value is kept as its md5, so a long text still fits a btree key.
-- Rows follow each entry's latest content (its preview row, drafts included) and leave when the
-- entry is deleted or the rule is dropped.
CREATE TABLE entry_unique_values (
  org_id      text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  model_alias text NOT NULL,
  field       text NOT NULL,
  locale      text NOT NULL,
  value_hash  text NOT NULL,
  entry_id    text NOT NULL,
  PRIMARY KEY (org_id, model_alias, field, locale, value_hash)
);
CREATE INDEX entry_unique_values_entry ON entry_unique_values (org_id, entry_id);
