-- Berth audit database, version 13: the journal's checks read a batch's items as one range.
--
-- An executor journals and settles the items of one request in statements of thousands of consecutive item
-- numbers. Version 7 made each statement-level check probe request_items (and intents) by primary key once
-- per row, so that a scattered batch costs what the batch costs, not what the request costs. For the usual
-- dense batch (one request, item numbers spanning at most about twice the batch) these checks now read the
-- batch's items as one primary-key range and hash-join them with the transition table, and look the request
-- up once instead of once per row. A scattered batch (a retry round, a resumed run) is still checked row by
-- row as in version 11. The rules, error codes and messages are unchanged.
--
-- berth.intents.replay_id no longer has a unique index of its own: since version 6 every new intent's replay
-- id is `<request id>-<item no>` (intents_replay_id_names_item), which is now validated for every row, so two
-- intents with the same replay id would be two intents of the same item, which the primary key refuses. The
-- text index cost one more index insert per intent, at a position far from the previous one.

ALTER TABLE berth.intents VALIDATE CONSTRAINT intents_replay_id_names_item;
ALTER TABLE berth.intents DROP CONSTRAINT intents_replay_id_key;

-- Whether a statement's transition table is one request's dense range of items: then its checks read that
-- range of request_items (and intents) at once. NULL request_id: more than one request (or none).
CREATE FUNCTION berth.dense_batch(request_id bigint, low integer, high integer, n bigint) RETURNS boolean
    LANGUAGE sql
    IMMUTABLE PARALLEL SAFE
AS $$
    SELECT request_id IS NOT NULL AND high - low < 2 * n + 1000
$$;

-- Journaling (INSERT) has its own check now; an UPDATE (failures, retries, skips: rare and small) is still
-- checked by berth.intents_check (version 11), whose INSERT branch no trigger calls any more.
CREATE FUNCTION berth.intents_insert_check() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    bad record;
    b   record;
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
    IF EXISTS (SELECT 1 FROM new_rows WHERE state NOT IN ('pending', 'skipped')) THEN
        RAISE EXCEPTION 'an intent is journaled as pending (or skipped) before anything is produced'
            USING ERRCODE = 'check_violation';
    END IF;
    SELECT CASE WHEN min(request_id) = max(request_id) THEN min(request_id) END AS request_id,
           min(item_no) AS low, max(item_no) AS high, count(*) AS n
      INTO b FROM new_rows;
    -- EXECUTE: planned with the range's bounds (one range scan, a hash anti-join); otherwise a probe per row.
    FOR bad IN EXECUTE
        'SELECT n.request_id, n.item_no FROM new_rows n WHERE NOT EXISTS ('
        || CASE WHEN berth.dense_batch(b.request_id, b.low, b.high, b.n)
                THEN 'SELECT 1 FROM berth.request_items i
                       WHERE i.request_id = $1 AND i.item_no BETWEEN $2 AND $3 AND i.item_no = n.item_no'
                ELSE 'SELECT 1 FROM berth.request_items i
                       WHERE i.request_id = n.request_id AND i.item_no = n.item_no OFFSET 0' END
        || ') ORDER BY n.request_id, n.item_no LIMIT 1'
        USING b.request_id, b.low, b.high
    LOOP
        RAISE EXCEPTION 'request % has no item %', bad.request_id, bad.item_no
            USING ERRCODE = 'foreign_key_violation';
    END LOOP;
    RETURN NULL;
END
$$;

DROP TRIGGER intents_check_insert ON berth.intents;
CREATE TRIGGER intents_check_insert AFTER INSERT ON berth.intents
    REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION berth.intents_insert_check();

-- The rows' items (with their intents) come from one of two sources, chosen per statement: the dense range
-- or a probe per row. The problem found is the same either way; the query text is built from fixed pieces
-- only (no value is spliced in: the range's bounds are parameters).
CREATE OR REPLACE FUNCTION berth.dispositions_check() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path = pg_catalog, pg_temp
    -- A fresh request's items have no statistics yet (the planner would expect one row in the range and
    -- nest a loop over the intents inside the loop over the items). The row-by-row path is a LATERAL
    -- subquery, which is a nested loop whatever this says. The cost a disabled nested loop adds would make
    -- the server compile the query (JIT), which takes longer than the check itself.
    SET enable_nestloop = off
    SET jit = off
AS $$
DECLARE
    problem text;
    b       record;
    items   text;
BEGIN
    PERFORM 1 FROM berth.requests WHERE id IN (SELECT request_id FROM new_rows) ORDER BY id FOR SHARE;
    SELECT CASE WHEN min(request_id) = max(request_id) THEN min(request_id) END AS request_id,
           min(item_no) AS low, max(item_no) AS high, count(*) AS n
      INTO b FROM new_rows;
    IF berth.dense_batch(b.request_id, b.low, b.high, b.n) THEN
        items := '(SELECT $1::bigint AS id) one
                  LEFT JOIN berth.requests r ON r.id = one.id
                  CROSS JOIN new_rows d
                  LEFT JOIN (SELECT i.item_no, i.source_topic, i.source_partition, i.source_offset,
                                    n.item_no AS intent_item_no, n.replay_id, n.state
                               FROM berth.request_items i
                               LEFT JOIN berth.intents n
                                 ON n.request_id = $1 AND n.item_no BETWEEN $2 AND $3 AND n.item_no = i.item_no
                              WHERE i.request_id = $1 AND i.item_no BETWEEN $2 AND $3) i ON i.item_no = d.item_no';
    ELSE
        items := 'new_rows d
                  LEFT JOIN berth.requests r ON r.id = d.request_id
                  LEFT JOIN LATERAL (SELECT i.item_no, i.source_topic, i.source_partition, i.source_offset,
                                            n.item_no AS intent_item_no, n.replay_id, n.state
                                       FROM berth.request_items i
                                       LEFT JOIN berth.intents n
                                         ON n.request_id = i.request_id AND n.item_no = i.item_no
                                      WHERE i.request_id = d.request_id AND i.item_no = d.item_no
                                     OFFSET 0) i ON true';
    END IF;
    EXECUTE
        'SELECT CASE
                    WHEN r.id IS NULL OR i.item_no IS NULL THEN
                        format(''request %s has no item %s'', d.request_id, d.item_no)
                    WHEN r.status <> ''executing'' THEN
                        format(''request %s is %s: dispositions are recorded only while it is executing'', r.id,
                               r.status)
                    WHEN d.disposed_by <> session_user THEN
                        format(''a disposition is recorded by the session user (%s), not %s'', session_user,
                               d.disposed_by)
                    WHEN (d.source_topic, d.source_partition, d.source_offset)
                         IS DISTINCT FROM (i.source_topic, i.source_partition, i.source_offset) THEN
                        format(''item %s of request %s is not %s/%s/%s'', d.item_no, r.id, d.source_topic,
                               d.source_partition, d.source_offset)
                    WHEN d.disposition <> CASE r.action WHEN ''skip'' THEN ''skipped''
                                                        WHEN ''delete'' THEN ''deleted''
                                                        ELSE ''replayed'' END THEN
                        format(''request %s is a %s: its items cannot be %s'', r.id, r.action, d.disposition)
                    WHEN d.dest_offset IS NOT NULL AND i.intent_item_no IS NULL THEN
                        format(''item %s of request %s has no intent: it is journaled before it is produced'',
                               d.item_no, r.id)
                    WHEN d.dest_offset IS NOT NULL THEN
                        format(''intent %s is %s: it cannot be delivered'', i.replay_id, i.state)
                    ELSE
                        format(''item %s of request %s has no delivered intent: a replay records where it went'',
                               d.item_no, r.id)
                END
           FROM ' || items || '
          WHERE r.id IS NULL OR i.item_no IS NULL
             OR r.status <> ''executing''
             OR d.disposed_by <> session_user
             OR (d.source_topic, d.source_partition, d.source_offset)
                IS DISTINCT FROM (i.source_topic, i.source_partition, i.source_offset)
             OR d.disposition <> CASE r.action WHEN ''skip'' THEN ''skipped'' WHEN ''delete'' THEN ''deleted''
                                               ELSE ''replayed'' END
             -- A delivery names an open intent; a replayed row without a destination follows an old-shape one.
             OR (d.disposition = ''replayed'' AND d.dest_offset IS NOT NULL
                 AND (i.intent_item_no IS NULL OR i.state NOT IN (''pending'', ''failed'')))
             OR (d.disposition = ''replayed'' AND d.dest_offset IS NULL AND i.state IS DISTINCT FROM ''delivered'')
          ORDER BY d.id
          LIMIT 1'
        INTO problem
        USING b.request_id, b.low, b.high;
    IF problem IS NOT NULL THEN
        RAISE EXCEPTION '%', problem USING ERRCODE = 'object_not_in_prerequisite_state';
    END IF;
    RETURN NULL;
END
$$;
