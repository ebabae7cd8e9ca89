-- Full-text search reads the text inside component values too: the text, richtext and tag fields
-- of each component a value holds, nested ones included (never the component's alias nor the ids
-- of its references and media). Vectors follow writes, as before: an entry's vectors change at its
-- next write after its model or a component it holds changes.

-- The text-typed values inside a component value or a list of them, as a jsonb array.
CREATE FUNCTION folio_component_texts(org text, value jsonb, depth int DEFAULT 0) RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT COALESCE(jsonb_agg(t.v), '[]'::jsonb) FROM (
    SELECT CASE WHEN f ->> 'type' = 'component' THEN folio_component_texts(org, item -> (f ->> 'alias'), depth + 1) ELSE item -> (f ->> 'alias') END AS v
    FROM jsonb_array_elements(CASE jsonb_typeof(value) WHEN 'array' THEN value WHEN 'object' THEN jsonb_build_array(value) ELSE '[]'::jsonb END) AS items(item)
    JOIN components c ON c.org_id = org AND c.alias = item ->> 'component'
    CROSS JOIN LATERAL jsonb_array_elements(c.fields) AS f
    -- components nest at most 4 levels (checked when they are written); the bound keeps a bad row finite
    WHERE depth < 8 AND f ->> 'type' IN ('text', 'richtext', 'tag', 'component') AND item ? (f ->> 'alias')
  ) t
$$;

CREATE OR REPLACE FUNCTION folio_write_entry_search(changed bigint[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM entry_search WHERE row_id = ANY(changed);
  INSERT INTO entry_search (row_id, org_id, locale, vector)
  SELECT e.row_id, e.org_id, l.locale,
         jsonb_to_tsvector(folio_ts_config(l.code), COALESCE(
           (SELECT jsonb_object_agg(t.alias, CASE WHEN t.component
                     THEN folio_component_texts(e.org_id, COALESCE(e.locales -> l.locale -> t.alias, e.fields -> t.alias))
                     ELSE COALESCE(e.locales -> l.locale -> t.alias, e.fields -> t.alias) END)
            FROM unnest(t_fields.aliases, t_fields.components) AS t(alias, component)), '{}'::jsonb), '["string"]')
  FROM entries e
  CROSS JOIN LATERAL (
    SELECT array_agg(f ->> 'alias') AS aliases, array_agg(f ->> 'type' = 'component') AS components
    FROM models m, jsonb_array_elements(m.fields) f
    WHERE m.org_id = e.org_id AND m.alias = e.model_alias AND f ->> 'type' IN ('text', 'richtext', 'tag', 'component')
  ) t_fields
  CROSS JOIN LATERAL (
    SELECT ''::text AS locale, (SELECT d.code FROM locales d WHERE d.org_id = e.org_id AND d.is_default) AS code
    UNION ALL SELECT o.code, o.code FROM locales o WHERE o.org_id = e.org_id AND NOT o.is_default
  ) l
  WHERE e.row_id = ANY(changed) AND t_fields.aliases IS NOT NULL;
END $$;
