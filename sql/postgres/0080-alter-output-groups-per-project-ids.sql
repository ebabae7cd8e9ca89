-- Output-group ids are numbered per project (1, 2, 3, …) instead of by one sequence shared by
-- every tenant, whose gaps told one organization how busy the others were. The project row
-- carries the last id handed out: taking the next one locks that row, so concurrent creates in
-- a project get distinct ids, and an id is never handed out again after its group is deleted.
-- Existing groups keep their ids; a project's numbering continues after its highest.
ALTER TABLE projects ADD COLUMN last_output_group_id integer NOT NULL DEFAULT 0;
UPDATE projects p SET last_output_group_id = g.max_id
  FROM (SELECT org_id, project_id, max(id) AS max_id FROM output_groups GROUP BY org_id, project_id) g
  WHERE p.org_id = g.org_id AND p.id = g.project_id;
ALTER TABLE output_groups ALTER COLUMN id DROP IDENTITY;
