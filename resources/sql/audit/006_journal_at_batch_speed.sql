-- Berth audit database, version 6: the execution journal at batch speed.
--
-- An executor writes three audited rows per item (intent journaled, intent settled, disposition), in
-- statements of thousands of items. Version 2 to 4 paid for them row by row: a foreign key check per intent
-- and per disposition (each one an internal query), a PL/pgSQL trigger per intent update, a non-HOT update
-- (the partial index on state), and audit events that built one JSON object per item. Here every rule still
-- holds, checked once per statement over the transition tables instead:
--   * an intent or disposition names an item of its request (was: foreign keys to request_items; items are
--     immutable and never deleted, so checking at insert is all a foreign key did);
--   * an intent's identity never changes, its replay id is `<request id>-<item no>`, its state moves only
--     pending -> delivered | failed | skipped and failed -> pending | delivered | skipped, and a delivery is
--     final (was: intents_before_update, per row). The same error codes and messages as before.
-- The partial index intents_open is dropped (nothing reads it; without it a settle is a HOT update, and the
-- table leaves room on each page for one), and updated_at is written by the executor's UPDATE (it may set
-- only that and the delivery columns; created_at and the identity are not granted).
--
-- Audit events of intents and dispositions list their items column-wise, one array per field in item order
-- (disposition order for dispositions), instead of an array of objects: the same facts, a third of the size,
-- and no object to build per item.
--   intent.journaled      details: {"count", "item_no": [], "replay_id": [], "state": [], "dest_topic": []}
--   intent.updated        details: {"count", "item_no": [], "from": [], "to": [], "attempts": [],
--                                   "dest_topic": [], "dest_partition": [], "dest_offset": [], "error": []}
--   disposition.recorded  details: {"count", "item_no": [], "topic": [], "partition": [], "offset": [],
--                                   "disposition": [], "details": []}
-- Events written before this version keep their "items" form; readers accept both.

ALTER TABLE berth.intents DROP CONSTRAINT intents_request_id_item_no_fkey;
ALTER TABLE berth.dispositions DROP CONSTRAINT dispositions_request_id_item_no_fkey;
DROP TRIGGER intents_before_update ON berth.intents;
DROP FUNCTION berth.intents_before_update();
DROP INDEX berth.intents_open;
ALTER TABLE berth.intents SET (fillfactor = 50);
-- Checked for new rows only: rows from before this version were written under the same rule by Berth, and
-- validating them would rewrite nothing but could take long on a large journal.
ALTER TABLE berth.intents ADD CONSTRAINT intents_replay_id_names_item
    CHECK (replay_id = request_id::text || '-' || item_no::text) NOT VALID;
GRANT UPDATE (updated_at) ON berth.intents TO berth_operator;
-- The update check compares each intent with what it was.
DROP TRIGGER intents_check_update ON berth.intents;
CREATE TRIGGER intents_check_update AFTER UPDATE ON berth.intents
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION berth.intents_check();

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
             WHERE NOT EXISTS (SELECT 1 FROM berth.request_items i
                                WHERE i.request_id = n.request_id AND i.item_no = n.item_no)
             ORDER BY n.request_id, n.item_no LIMIT 1
        LOOP
            RAISE EXCEPTION 'request % has no item %', bad.request_id, bad.item_no
                USING ERRCODE = 'foreign_key_violation';
        END LOOP;
        RETURN NULL;
    END IF;

    -- UPDATE: every new row must be an old row (same identity), moved along a legal path.
    FOR bad IN
        SELECT n.replay_id AS new_id, o.replay_id AS old_id, o.state AS old_state, n.state AS new_state,
               CASE
                   WHEN o.item_no IS NULL OR n.replay_id <> o.replay_id OR n.created_at <> o.created_at
                       THEN 'identity'
                   WHEN n.state <> o.state
                        AND NOT ((o.state = 'pending' AND n.state IN ('delivered', 'failed', 'skipped'))
                                 OR (o.state = 'failed' AND n.state IN ('pending', 'delivered', 'skipped')))
                       THEN 'transition'
                   ELSE 'final'
               END AS problem
          FROM new_rows n
          LEFT JOIN old_rows o ON o.request_id = n.request_id AND o.item_no = n.item_no
         WHERE o.item_no IS NULL OR n.replay_id <> o.replay_id OR n.created_at <> o.created_at
            OR (n.state <> o.state
                AND NOT ((o.state = 'pending' AND n.state IN ('delivered', 'failed', 'skipped'))
                         OR (o.state = 'failed' AND n.state IN ('pending', 'delivered', 'skipped'))))
            OR (o.state = 'delivered'
                AND (n.dest_topic, n.dest_partition, n.dest_offset)
                    IS DISTINCT FROM (o.dest_topic, o.dest_partition, o.dest_offset))
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
           END
      INTO problem
      FROM new_rows d
      LEFT JOIN berth.requests r ON r.id = d.request_id
      LEFT JOIN berth.request_items i ON i.request_id = d.request_id AND i.item_no = d.item_no
     WHERE r.id IS NULL OR i.item_no IS NULL
        OR r.status <> 'executing'
        OR d.disposed_by <> session_user
        OR (d.source_topic, d.source_partition, d.source_offset)
           IS DISTINCT FROM (i.source_topic, i.source_partition, i.source_offset)
        OR d.disposition <> CASE r.action WHEN 'skip' THEN 'skipped' WHEN 'delete' THEN 'deleted' ELSE 'replayed' END
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
                                  'item_no', to_jsonb(array_agg(n.item_no ORDER BY n.item_no)),
                                  'replay_id', to_jsonb(array_agg(n.replay_id ORDER BY n.item_no)),
                                  'state', to_jsonb(array_agg(n.state ORDER BY n.item_no)),
                                  'dest_topic', to_jsonb(array_agg(n.dest_topic ORDER BY n.item_no)))
          FROM new_rows n
         GROUP BY n.request_id
         ORDER BY n.request_id;
    ELSE
        INSERT INTO berth.audit_events (action, request_id, details)
        SELECT 'intent.updated', u.request_id,
               jsonb_build_object('count', count(*),
                                  'item_no', to_jsonb(array_agg(u.item_no ORDER BY u.item_no)),
                                  'from', to_jsonb(array_agg(u.from_state ORDER BY u.item_no)),
                                  'to', to_jsonb(array_agg(u.state ORDER BY u.item_no)),
                                  'attempts', to_jsonb(array_agg(u.attempts ORDER BY u.item_no)),
                                  'dest_topic', to_jsonb(array_agg(u.dest_topic ORDER BY u.item_no)),
                                  'dest_partition', to_jsonb(array_agg(u.dest_partition ORDER BY u.item_no)),
                                  'dest_offset', to_jsonb(array_agg(u.dest_offset ORDER BY u.item_no)),
                                  'error', to_jsonb(array_agg(u.error ORDER BY u.item_no)))
          FROM (SELECT n.*, o.state AS from_state
                  FROM new_rows n
                  JOIN old_rows o ON o.request_id = n.request_id AND o.item_no = n.item_no) u
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
                              'item_no', to_jsonb(array_agg(d.item_no ORDER BY d.id)),
                              'topic', to_jsonb(array_agg(d.source_topic ORDER BY d.id)),
                              'partition', to_jsonb(array_agg(d.source_partition ORDER BY d.id)),
                              'offset', to_jsonb(array_agg(d.source_offset ORDER BY d.id)),
                              'disposition', to_jsonb(array_agg(d.disposition ORDER BY d.id)),
                              'details', to_jsonb(array_agg(d.details ORDER BY d.id)))
      FROM new_rows d
     GROUP BY d.request_id
     ORDER BY d.request_id;
    RETURN NULL;
END
$$;
