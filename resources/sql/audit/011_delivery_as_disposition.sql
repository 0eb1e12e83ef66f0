-- Berth audit database, version 11: a delivery is one append-only row.
--
-- Until version 10 an executor wrote three audited rows per replayed item: the intent journaled (INSERT),
-- the intent settled (UPDATE, checked against its old row) and the `replayed` disposition (INSERT). The
-- settle UPDATE with its transition check and its event was the most expensive of the three. From here on
-- the delivery of an item IS its `replayed` disposition, which also carries where the record went
-- (dest_topic, dest_partition, dest_offset); the intent row is no longer updated on success. An item's
-- state is derived: delivered <=> it has a replayed disposition (or, journaled before this version, its
-- intent says delivered). Failures, retries and skips (rare) still UPDATE the intent as before.
--
-- What the database enforces, as before and now for the new shape:
--   * an item is delivered at most once: one replayed disposition per item (unique index), refused for an
--     intent already delivered under the old shape, and no intent UPDATE to `delivered` any more (a
--     delivery is recorded as the disposition);
--   * a delivery is final: an intent with a replayed disposition cannot be updated;
--   * a replayed disposition with a destination names a journaled intent that is pending or failed (the
--     intent is durable before the record is produced), one without a destination follows an intent
--     delivered under the old shape;
--   * a disposition only for an item of an executing request, matching source coordinates, by the session
--     user, of the request's action (007, unchanged);
--   * history is append-only: nobody is granted UPDATE or DELETE on dispositions (005).
--
-- Audit events record every fact once (the hash chain covers canonical text, so less text is less work):
--   intent.journaled      details: {"count", "item_no": [], "dest_topic": "t" or []}
--                         plus "state": [] when some intent is not journaled as pending (the replay id is
--                         `<request>-<item>` by the intents_replay_id_names_item check)
--   intent.updated        details: as version 6 ({"count", "item_no", "from", "to", "attempts", "dest_topic",
--                         "dest_partition", "dest_offset", "error"})
--   disposition.recorded  details: {"count", "item_no": [], "disposition": "d" or []}
--                         plus "dest_topic": "t" or [], "dest_partition": [], "dest_offset": [] when some row
--                         has a destination, and "details": [] when some row has details other than {}.
--                         The source coordinates are the item's (checked by dispositions_check), recorded
--                         once in its request.items_added event.
-- A value the same for every row of the statement is written once ("t"), a list otherwise. Each event sorts
-- its rows once (aggregates over a sorted subquery) instead of once per array. Events written before this
-- version keep their form; readers accept all.

ALTER TABLE berth.dispositions
    ADD COLUMN dest_topic text,
    ADD COLUMN dest_partition integer,
    ADD COLUMN dest_offset bigint;
-- New rows only: older rows have no destination and need no scan.
ALTER TABLE berth.dispositions ADD CONSTRAINT dispositions_destination_of_replays
    CHECK ((dest_partition IS NULL) = (dest_offset IS NULL)
           AND (dest_offset IS NULL OR (disposition = 'replayed' AND dest_topic IS NOT NULL))) NOT VALID;
CREATE UNIQUE INDEX dispositions_delivered_once ON berth.dispositions (request_id, item_no)
    WHERE disposition = 'replayed';
-- Intents are no longer updated on success: new pages are filled (006 left room on each for a HOT update).
ALTER TABLE berth.intents SET (fillfactor = 100);

-- Each intent with its state derived: the one definition of "delivered" that Berth (IntentJournal::load)
-- and an auditor with psql read. A view with the owner's rights over tables both roles may read anyway.
CREATE VIEW berth.intent_states AS
SELECT i.request_id, i.item_no, i.replay_id,
       CASE WHEN d.item_no IS NULL THEN i.state ELSE 'delivered' END AS state,
       COALESCE(d.dest_topic, i.dest_topic) AS dest_topic,
       COALESCE(d.dest_partition, i.dest_partition) AS dest_partition,
       COALESCE(d.dest_offset, i.dest_offset) AS dest_offset,
       -- A delivery was a produce attempt, unless it was found in the destination (reconciled).
       i.attempts + CASE WHEN d.item_no IS NULL OR d.reconciled THEN 0 ELSE 1 END AS attempts,
       CASE WHEN d.item_no IS NULL THEN i.error WHEN d.reconciled THEN 'reconciled' END AS error,
       i.created_at,
       COALESCE(d.at, i.updated_at) AS updated_at
  FROM berth.intents i
  -- One probe of dispositions_delivered_once per intent (a LATERAL subquery behind OFFSET 0, which the planner
  -- cannot turn into a join): linear in the intents read, whatever the statistics say (007).
  LEFT JOIN LATERAL (SELECT d.item_no, d.dest_topic, d.dest_partition, d.dest_offset, d.at,
                            COALESCE((d.details ->> 'reconciled')::boolean, false) AS reconciled
                       FROM berth.dispositions d
                      WHERE d.request_id = i.request_id AND d.item_no = i.item_no
                        AND d.disposition = 'replayed' AND d.dest_offset IS NOT NULL
                     OFFSET 0) d ON true;
GRANT SELECT ON berth.intent_states TO berth_operator, berth_approver;

-- A request completes only when every intent is delivered or skipped, now counting the deliveries recorded
-- as dispositions (as version 2 otherwise).
CREATE OR REPLACE FUNCTION berth.requests_before_update() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    approvals_given integer;
    rejections      integer;
    unfinished      bigint;
BEGIN
    IF (to_jsonb(OLD) - 'status' - 'status_changed_at' - 'status_changed_by')
       IS DISTINCT FROM (to_jsonb(NEW) - 'status' - 'status_changed_at' - 'status_changed_by') THEN
        RAISE EXCEPTION 'request %: only its status may change after it was made', OLD.id
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF NEW.status = OLD.status THEN
        NEW.status_changed_at := OLD.status_changed_at;
        NEW.status_changed_by := OLD.status_changed_by;
        RETURN NEW;
    END IF;
    IF NOT ((OLD.status = 'pending' AND NEW.status IN ('approved', 'rejected', 'expired', 'cancelled'))
            OR (OLD.status = 'approved' AND NEW.status IN ('executing', 'expired', 'cancelled'))
            OR (OLD.status = 'executing' AND NEW.status IN ('completed', 'partially_failed', 'cancelled'))
            OR (OLD.status = 'partially_failed' AND NEW.status = 'executing')) THEN
        RAISE EXCEPTION 'request % is %: it cannot become %', OLD.id, OLD.status, NEW.status
            USING ERRCODE = 'object_not_in_prerequisite_state';
    END IF;

    SELECT count(*) FILTER (WHERE decision = 'approve'), count(*) FILTER (WHERE decision = 'reject')
      INTO approvals_given, rejections
      FROM berth.approvals
     WHERE request_id = OLD.id;

    IF NEW.status IN ('approved', 'executing') THEN
        IF rejections > 0 THEN
            RAISE EXCEPTION 'request % was rejected: it can never execute', OLD.id
                USING ERRCODE = 'object_not_in_prerequisite_state';
        END IF;
        IF approvals_given < OLD.required_approvals THEN
            RAISE EXCEPTION 'request % has % of the % approvals it needs', OLD.id, approvals_given,
                OLD.required_approvals
                USING ERRCODE = 'object_not_in_prerequisite_state';
        END IF;
        IF clock_timestamp() >= OLD.expires_at THEN
            RAISE EXCEPTION 'request % expired at %: it can never execute', OLD.id, OLD.expires_at
                USING ERRCODE = 'object_not_in_prerequisite_state';
        END IF;
        IF NEW.status = 'executing' AND NOT pg_has_role(session_user, 'berth_operator', 'MEMBER') THEN
            RAISE EXCEPTION 'role % may not execute request %: it is not a member of berth_operator',
                session_user, OLD.id
                USING ERRCODE = 'insufficient_privilege';
        END IF;
    ELSIF NEW.status = 'rejected' AND rejections = 0 THEN
        RAISE EXCEPTION 'request % has no rejection: an approver rejects it by inserting an approval', OLD.id
            USING ERRCODE = 'object_not_in_prerequisite_state';
    ELSIF NEW.status = 'expired' AND clock_timestamp() < OLD.expires_at THEN
        RAISE EXCEPTION 'request % does not expire before %', OLD.id, OLD.expires_at
            USING ERRCODE = 'object_not_in_prerequisite_state';
    ELSIF NEW.status = 'completed' THEN
        SELECT count(*) INTO unfinished
          FROM berth.intents
         WHERE request_id = OLD.id AND state IN ('pending', 'failed');
        -- Less those delivered since (version 11): a replayed disposition with a destination is only ever
        -- recorded for a pending or failed intent, at most one per item, and such an intent is never updated
        -- again, so each one stands for exactly one of the intents counted above.
        unfinished := unfinished - (SELECT count(*) FROM berth.dispositions
                                     WHERE request_id = OLD.id AND disposition = 'replayed'
                                       AND dest_offset IS NOT NULL);
        IF unfinished > 0 THEN
            RAISE EXCEPTION 'request % has % intents neither delivered nor skipped: it ends partially_failed or cancelled',
                OLD.id, unfinished
                USING ERRCODE = 'object_not_in_prerequisite_state';
        END IF;
    END IF;

    NEW.status_changed_at := clock_timestamp();
    NEW.status_changed_by := session_user;
    RETURN NEW;
END
$$;

CREATE OR REPLACE FUNCTION berth.intents_check() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    bad record;
BEGIN
    PERFORM 1 FROM berth.requests WHERE id IN (SELECT request_id FROM new_rows) ORDER BY id FOR SHARE;
    FOR bad IN
        SELECT r.id, r.status FROM berth.requests r
         WHERE r.id IN (SELECT request_id FROM new_rows) AND r.status <> 'executing'
         ORDER BY r.id LIMIT 1
    LOOP
        RAISE EXCEPTION 'request % is %: intents are journaled only while it is executing', bad.id, bad.status
            USING ERRCODE = 'object_not_in_prerequisite_state';
    END LOOP;
    IF TG_OP = 'INSERT' THEN
        IF EXISTS (SELECT 1 FROM new_rows WHERE state NOT IN ('pending', 'skipped')) THEN
            RAISE EXCEPTION 'an intent is journaled as pending (or skipped) before anything is produced'
                USING ERRCODE = 'check_violation';
        END IF;
        FOR bad IN
            SELECT n.request_id, n.item_no FROM new_rows n
              LEFT JOIN LATERAL (SELECT i.item_no FROM berth.request_items i
                                  WHERE i.request_id = n.request_id AND i.item_no = n.item_no
                                 OFFSET 0) i ON true
             WHERE i.item_no IS NULL
             ORDER BY n.request_id, n.item_no LIMIT 1
        LOOP
            RAISE EXCEPTION 'request % has no item %', bad.request_id, bad.item_no
                USING ERRCODE = 'foreign_key_violation';
        END LOOP;
        RETURN NULL;
    END IF;

    -- UPDATE: every new row must be an old row (same identity), moved along a legal path. Delivered is no
    -- longer a target (a delivery is the item's replayed disposition), and an item with one is final.
    FOR bad IN
        SELECT n.replay_id AS new_id, o.replay_id AS old_id, o.state AS old_state, n.state AS new_state,
               CASE
                   WHEN o.item_no IS NULL OR n.replay_id <> o.replay_id OR n.created_at <> o.created_at
                       THEN 'identity'
                   WHEN o.state = 'delivered' AND n.state <> o.state THEN 'transition'
                   WHEN o.state = 'delivered' OR d.item_no IS NOT NULL THEN 'final'
                   ELSE 'transition'
               END AS problem
          FROM new_rows n
          LEFT JOIN old_rows o ON o.request_id = n.request_id AND o.item_no = n.item_no
          LEFT JOIN LATERAL (SELECT d.item_no FROM berth.dispositions d
                              WHERE d.request_id = n.request_id AND d.item_no = n.item_no
                                AND d.disposition = 'replayed'
                             OFFSET 0) d ON true
         WHERE o.item_no IS NULL OR n.replay_id <> o.replay_id OR n.created_at <> o.created_at
            OR (n.state <> o.state
                AND NOT ((o.state = 'pending' AND n.state IN ('failed', 'skipped'))
                         OR (o.state = 'failed' AND n.state IN ('pending', 'skipped'))))
            OR (o.state = 'delivered'
                AND (n.dest_topic, n.dest_partition, n.dest_offset)
                    IS DISTINCT FROM (o.dest_topic, o.dest_partition, o.dest_offset))
            OR d.item_no IS NOT NULL
         ORDER BY n.request_id, n.item_no
         LIMIT 1
    LOOP
        IF bad.problem = 'identity' THEN
            RAISE EXCEPTION 'intent %: only its delivery state may change', coalesce(bad.old_id, bad.new_id)
                USING ERRCODE = 'insufficient_privilege';
        ELSIF bad.problem = 'transition' THEN
            RAISE EXCEPTION 'intent % is %: it cannot become %', bad.old_id, bad.old_state, bad.new_state
                USING ERRCODE = 'object_not_in_prerequisite_state';
        ELSE
            RAISE EXCEPTION 'intent % was delivered: its delivery is final', bad.old_id
                USING ERRCODE = 'object_not_in_prerequisite_state';
        END IF;
    END LOOP;
    RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION berth.dispositions_check() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    problem text;
BEGIN
    PERFORM 1 FROM berth.requests WHERE id IN (SELECT request_id FROM new_rows) ORDER BY id FOR SHARE;
    SELECT CASE
               WHEN r.id IS NULL OR i.item_no IS NULL THEN
                   format('request %s has no item %s', d.request_id, d.item_no)
               WHEN r.status <> 'executing' THEN
                   format('request %s is %s: dispositions are recorded only while it is executing', r.id, r.status)
               WHEN d.disposed_by <> session_user THEN
                   format('a disposition is recorded by the session user (%s), not %s', session_user, d.disposed_by)
               WHEN (d.source_topic, d.source_partition, d.source_offset)
                    IS DISTINCT FROM (i.source_topic, i.source_partition, i.source_offset) THEN
                   format('item %s of request %s is not %s/%s/%s', d.item_no, r.id, d.source_topic,
                          d.source_partition, d.source_offset)
               WHEN d.disposition <> CASE r.action WHEN 'skip' THEN 'skipped' WHEN 'delete' THEN 'deleted'
                                                   ELSE 'replayed' END THEN
                   format('request %s is a %s: its items cannot be %s', r.id, r.action, d.disposition)
               WHEN d.dest_offset IS NOT NULL AND i.intent_item_no IS NULL THEN
                   format('item %s of request %s has no intent: it is journaled before it is produced',
                          d.item_no, r.id)
               WHEN d.dest_offset IS NOT NULL THEN
                   format('intent %s is %s: it cannot be delivered', i.replay_id, i.state)
               ELSE
                   format('item %s of request %s has no delivered intent: a replay records where it went',
                          d.item_no, r.id)
           END
      INTO problem
      FROM new_rows d
      LEFT JOIN berth.requests r ON r.id = d.request_id
      -- One probe per row for the item and its intent together (two primary keys, one subquery).
      LEFT JOIN LATERAL (SELECT i.item_no, i.source_topic, i.source_partition, i.source_offset,
                                n.item_no AS intent_item_no, n.replay_id, n.state
                           FROM berth.request_items i
                           LEFT JOIN berth.intents n ON n.request_id = i.request_id AND n.item_no = i.item_no
                          WHERE i.request_id = d.request_id AND i.item_no = d.item_no
                         OFFSET 0) i ON true
     WHERE r.id IS NULL OR i.item_no IS NULL
        OR r.status <> 'executing'
        OR d.disposed_by <> session_user
        OR (d.source_topic, d.source_partition, d.source_offset)
           IS DISTINCT FROM (i.source_topic, i.source_partition, i.source_offset)
        OR d.disposition <> CASE r.action WHEN 'skip' THEN 'skipped' WHEN 'delete' THEN 'deleted' ELSE 'replayed' END
        -- A delivery names an open intent; a replayed row without a destination follows an old-shape one.
        OR (d.disposition = 'replayed' AND d.dest_offset IS NOT NULL
            AND (i.intent_item_no IS NULL OR i.state NOT IN ('pending', 'failed')))
        OR (d.disposition = 'replayed' AND d.dest_offset IS NULL AND i.state IS DISTINCT FROM 'delivered')
     ORDER BY d.id
     LIMIT 1;
    IF problem IS NOT NULL THEN
        RAISE EXCEPTION '%', problem USING ERRCODE = 'object_not_in_prerequisite_state';
    END IF;
    RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION berth.journal_intents() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO berth.audit_events (action, request_id, details)
        SELECT 'intent.journaled', n.request_id,
               jsonb_build_object('count', count(*),
                                  'item_no', to_jsonb(array_agg(n.item_no)),
                                  'dest_topic',
                                  CASE WHEN count(n.dest_topic) = count(*) AND min(n.dest_topic) = max(n.dest_topic)
                                       THEN to_jsonb(min(n.dest_topic))
                                       ELSE to_jsonb(array_agg(n.dest_topic)) END)
               || CASE WHEN bool_and(n.state = 'pending') THEN '{}'::jsonb
                       ELSE jsonb_build_object('state', to_jsonb(array_agg(n.state))) END
          FROM (SELECT request_id, item_no, state, dest_topic FROM new_rows ORDER BY request_id, item_no) n
         GROUP BY n.request_id
         ORDER BY n.request_id;
    ELSE
        INSERT INTO berth.audit_events (action, request_id, details)
        SELECT 'intent.updated', u.request_id,
               jsonb_build_object('count', count(*),
                                  'item_no', to_jsonb(array_agg(u.item_no)),
                                  'from', to_jsonb(array_agg(u.from_state)),
                                  'to', to_jsonb(array_agg(u.state)),
                                  'attempts', to_jsonb(array_agg(u.attempts)),
                                  'dest_topic', to_jsonb(array_agg(u.dest_topic)),
                                  'dest_partition', to_jsonb(array_agg(u.dest_partition)),
                                  'dest_offset', to_jsonb(array_agg(u.dest_offset)),
                                  'error', to_jsonb(array_agg(u.error)))
          FROM (SELECT n.*, o.state AS from_state
                  FROM new_rows n
                  JOIN old_rows o ON o.request_id = n.request_id AND o.item_no = n.item_no
                 ORDER BY n.request_id, n.item_no) u
         GROUP BY u.request_id
         ORDER BY u.request_id;
    END IF;
    RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION berth.journal_dispositions() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    INSERT INTO berth.audit_events (action, request_id, details)
    SELECT 'disposition.recorded', d.request_id,
           jsonb_build_object('count', count(*),
                              'item_no', to_jsonb(array_agg(d.item_no)),
                              'disposition',
                              CASE WHEN min(d.disposition) = max(d.disposition) THEN to_jsonb(min(d.disposition))
                                   ELSE to_jsonb(array_agg(d.disposition)) END)
           || CASE WHEN count(d.dest_offset) = 0 THEN '{}'::jsonb
                   ELSE jsonb_build_object(
                            'dest_topic',
                            CASE WHEN count(d.dest_topic) = count(*) AND min(d.dest_topic) = max(d.dest_topic)
                                 THEN to_jsonb(min(d.dest_topic))
                                 ELSE to_jsonb(array_agg(d.dest_topic)) END,
                            'dest_partition', to_jsonb(array_agg(d.dest_partition)),
                            'dest_offset', to_jsonb(array_agg(d.dest_offset))) END
           || CASE WHEN bool_and(d.details = '{}'::jsonb) THEN '{}'::jsonb
                   ELSE jsonb_build_object('details', to_jsonb(array_agg(d.details))) END
      FROM (SELECT request_id, id, item_no, disposition, details, dest_topic, dest_partition, dest_offset
              FROM new_rows ORDER BY request_id, id) d
     GROUP BY d.request_id
     ORDER BY d.request_id;
    RETURN NULL;
END
$$;
