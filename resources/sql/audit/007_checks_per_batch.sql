-- Berth audit database, version 7: the journal's checks cost what a batch costs, not what the request costs.
--
-- The statement-level checks of version 6 join a batch's transition table (thousands of rows, no
-- statistics) with berth.request_items. The planner, without numbers for either side, hashed or sorted every
-- item of the request for each batch: a 100,000-item replay read its 100,000 items twice per 5,000-item
-- batch, and the work grew with the square of the request's size. The look-ups are now LATERAL subqueries
-- behind OFFSET 0, which the planner cannot merge into a join: one primary-key probe per row of the batch.
-- The rules, error codes and messages are unchanged.

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
      LEFT JOIN LATERAL (SELECT i.item_no, i.source_topic, i.source_partition, i.source_offset
                           FROM berth.request_items i
                          WHERE i.request_id = d.request_id AND i.item_no = d.item_no
                         OFFSET 0) i ON true
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

-- Audit events of a batch carry thousands of values; PostgreSQL compresses them on the way to storage, and
-- its own method (pglz) was a large part of a batch's cost. LZ4 does the same several times faster, where
-- the server was built with it. The stored facts and the hash chain (computed over the canonical text) do
-- not change.
DO $$
BEGIN
    ALTER TABLE berth.audit_events ALTER COLUMN details SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
    NULL; -- a server without LZ4 keeps pglz
END
$$;
