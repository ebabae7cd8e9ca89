-- The outbox of content events. A change writes its events in its own transaction, so a
-- committed change always has them and a rolled-back one never does; a dispatcher turns each
-- into one delivery per matching webhook and stamps dispatched_at. The statement trigger wakes
-- the dispatcher at COMMIT (NOTIFY is delivered only then).
CREATE TABLE events (
  id            bigserial PRIMARY KEY,
  org_id        text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  type          text NOT NULL,
  -- what the event is about ('entry:<id>', 'asset:<id>', 'model:<alias>', …): deliveries keep
  -- the order of one subject's events
  subject       text NOT NULL,
  -- the model alias of entry and model events, for webhooks filtered by model
  model         text,
  data          jsonb NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  dispatched_at timestamptz
);
CREATE INDEX events_undispatched ON events (id) WHERE dispatched_at IS NULL;
CREATE INDEX events_dispatched ON events (dispatched_at) WHERE dispatched_at IS NOT NULL;

CREATE FUNCTION folio_events_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('folio_events', '');
  RETURN NULL;
END $$;
CREATE TRIGGER events_notify AFTER INSERT ON events FOR EACH STATEMENT EXECUTE FUNCTION folio_events_notify();

CREATE TABLE webhooks (
  org_id               text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  id                   text NOT NULL,
  url                  text NOT NULL,
  events               text[] NOT NULL,
  -- entry and model events of these model aliases only; NULL: every model
  models               text[],
  description          text,
  secret               text NOT NULL,
  -- after a rotation the old secret signs too, until then, so receivers can switch over
  previous_secret      text,
  previous_secret_until timestamptz,
  enabled              boolean NOT NULL DEFAULT true,
  disabled_reason      text,
  -- deliveries in a row that failed every attempt; reset by a success
  failed_in_a_row      integer NOT NULL DEFAULT 0,
  created_at           timestamptz NOT NULL DEFAULT now(),
  updated_at           timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, id)
);
CREATE INDEX webhooks_enabled ON webhooks (org_id) WHERE enabled;

-- One event sent to one webhook: the same id (the webhook-id header) and the same body on every
-- attempt. Within (webhook, lane) only the oldest pending delivery is in flight.
CREATE TABLE webhook_deliveries (
  org_id           text NOT NULL,
  id               text NOT NULL,
  webhook_id       text NOT NULL,
  seq              bigserial,
  event_id         bigint NOT NULL,
  event_type       text NOT NULL,
  lane             text NOT NULL,
  body             text NOT NULL,
  status           text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed')),
  attempts         integer NOT NULL DEFAULT 0,
  last_status_code integer,
  last_duration_ms integer,
  last_error       text,
  response_excerpt text,
  next_attempt_at  timestamptz NOT NULL DEFAULT now(),
  -- an attempt in flight: whoever claimed it sends it; a second job for the same attempt (a
  -- re-queued one, a stalled one taken over) skips it until the claim runs out
  claimed_until    timestamptz,
  created_at       timestamptz NOT NULL DEFAULT now(),
  finished_at      timestamptz,
  PRIMARY KEY (org_id, id),
  FOREIGN KEY (org_id, webhook_id) REFERENCES webhooks (org_id, id) ON DELETE CASCADE
);
CREATE INDEX webhook_deliveries_lane ON webhook_deliveries (webhook_id, lane, seq) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_log ON webhook_deliveries (org_id, webhook_id, seq DESC);
CREATE INDEX webhook_deliveries_finished ON webhook_deliveries (finished_at) WHERE status <> 'pending';

-- Records one attempt of a delivery and, when the outcome is final, returns its lane's next
-- pending delivery, in one round trip. It takes the lane lock (shared; the dispatcher holds it
-- exclusively while it adds deliveries and picks lane heads) before reading, and each statement
-- of a plpgsql function sees what committed before it: a delivery the dispatcher added to this
-- lane meanwhile is either a head there or found here, never neither.
CREATE FUNCTION folio_finish_attempt(p_lock bigint, p_org text, p_id text, p_attempts integer, p_status text, p_counted integer,
                                     p_code integer, p_ms integer, p_error text, p_excerpt text, p_retry_at timestamptz)
RETURNS TABLE (next_id text, next_attempts integer) LANGUAGE plpgsql AS $$
DECLARE
  v_webhook text;
  v_lane text;
BEGIN
  PERFORM pg_advisory_xact_lock_shared(p_lock);
  UPDATE webhook_deliveries d
     SET status = p_status, attempts = d.attempts + p_counted, last_status_code = p_code, last_duration_ms = p_ms, last_error = p_error,
         response_excerpt = p_excerpt, next_attempt_at = COALESCE(p_retry_at, d.next_attempt_at),
         finished_at = CASE WHEN p_status <> 'pending' THEN now() END, claimed_until = NULL
   -- only the attempt that was claimed: one recorded twice would count twice
   WHERE d.org_id = p_org AND d.id = p_id AND d.status = 'pending' AND d.attempts = p_attempts
  RETURNING d.webhook_id, d.lane INTO v_webhook, v_lane;
  IF p_status = 'pending' OR v_webhook IS NULL THEN
    RETURN;
  END IF;
  RETURN QUERY
    SELECT n.id, n.attempts FROM webhook_deliveries n
     WHERE n.org_id = p_org AND n.webhook_id = v_webhook AND n.lane = v_lane AND n.status = 'pending'
     ORDER BY n.seq LIMIT 1;
END $$;
