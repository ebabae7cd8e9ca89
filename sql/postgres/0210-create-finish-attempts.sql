-- Records many attempts in one statement and returns, for each attempt that was final, its
-- lane's next pending delivery. The same rules as folio_finish_attempt (kept for processes of
-- the version before, which call it one attempt at a time): the lane lock is taken (shared)
-- before the statement that reads, so that statement's snapshot sees every delivery the
-- dispatcher committed meanwhile; only the attempt that was claimed is recorded. Only a lane's
-- head is ever in flight, so a lane has at most one attempt here, and its next delivery is the
-- oldest pending one after it.
-- The attempts come as parallel arrays: a set-returning function of a parameter is planned for
-- ten rows (a JSON record set for a hundred), which keeps the plan on primary-key lookups of the
-- deliveries instead of a hash join over every pending one.
CREATE FUNCTION folio_finish_attempts(p_lock bigint, p_org text[], p_id text[], p_attempts integer[], p_status text[], p_counted integer[],
                                      p_code integer[], p_ms integer[], p_error text[], p_excerpt text[], p_retry_at timestamptz[])
RETURNS TABLE (ord integer, next_id text, next_attempts integer) LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock_shared(p_lock);
  RETURN QUERY
    WITH i AS (
      SELECT r.ord::integer AS ord, r.org, r.id, r.attempts, r.status, r.counted, r.code, r.ms, r.error, r.excerpt, r.retry_at
        FROM unnest(p_org, p_id, p_attempts, p_status, p_counted, p_code, p_ms, p_error, p_excerpt, p_retry_at)
             WITH ORDINALITY AS r(org, id, attempts, status, counted, code, ms, error, excerpt, retry_at, ord)
    ), done AS (
      UPDATE webhook_deliveries d
         SET status = i.status, attempts = d.attempts + i.counted, last_status_code = i.code, last_duration_ms = i.ms, last_error = i.error,
             response_excerpt = i.excerpt, next_attempt_at = COALESCE(i.retry_at, d.next_attempt_at),
             finished_at = CASE WHEN i.status <> 'pending' THEN now() END, claimed_until = NULL
        FROM i
       WHERE d.org_id = i.org AND d.id = i.id AND d.status = 'pending' AND d.attempts = i.attempts
      RETURNING i.ord, d.org_id, d.webhook_id, d.lane, d.seq, d.status)
    SELECT done.ord, n.id, n.attempts
      FROM done
     CROSS JOIN LATERAL (
       -- the statement does not see its own UPDATE: the finished delivery still looks pending
       -- here, so the next one is searched after it
       SELECT p.id, p.attempts FROM webhook_deliveries p
        WHERE p.org_id = done.org_id AND p.webhook_id = done.webhook_id AND p.lane = done.lane AND p.status = 'pending' AND p.seq > done.seq
        ORDER BY p.seq LIMIT 1) n
     WHERE done.status <> 'pending';
END $$;
