-- Berth audit database, version 4: every change to requests, request items, approvals, intents and
-- dispositions writes an audit event from a trigger, so the log is complete even for raw SQL; and every change
-- to a request or its approvals notifies channel `berth_requests` with the request id (delivered at commit),
-- so other desks refresh their approval queue.
--
-- Events written here (actor is always session_user; request_id is set):
--   request.created         details: the request row (without id)
--   request.status_changed  details: {"from", "to"}
--   request.items_added     details: {"count", "items": [{item_no, topic, partition, offset, payload_sha256,
--                           key (hex), idempotency_key, edited_payload_sha256, edited_payload_bytes,
--                           inbox_ref}]} -- one event per request and statement
--   approval.approved       details: {"comment"}
--   approval.rejected       details: {"comment"}
--   intent.journaled        details: {"count", "items": [{item_no, replay_id, state}]}      per request and statement
--   intent.updated          details: {"count", "items": [{item_no, replay_id, from, to, attempts, dest_topic,
--                           dest_partition, dest_offset, error}]}                           per request and statement
--   disposition.recorded    details: {"count", "items": [{item_no, topic, partition, offset, disposition,
--                           details}]}                                                      per request and statement
-- Intents and dispositions are journaled per statement, so an executor that writes them in batches pays
-- one chained audit row per batch, not one per message.

CREATE FUNCTION berth.journal_request() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO berth.audit_events (action, request_id, details)
        VALUES ('request.created', NEW.id, to_jsonb(NEW) - 'id' - 'status_changed_at' - 'status_changed_by');
    ELSIF NEW.status IS DISTINCT FROM OLD.status THEN
        INSERT INTO berth.audit_events (action, request_id, details)
        VALUES ('request.status_changed', NEW.id, jsonb_build_object('from', OLD.status, 'to', NEW.status));
    ELSE
        RETURN NULL;
    END IF;
    PERFORM pg_notify('berth_requests', NEW.id::text);
    RETURN NULL;
END
$$;

CREATE FUNCTION berth.journal_request_items() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    INSERT INTO berth.audit_events (action, request_id, details)
    SELECT 'request.items_added', i.request_id,
           jsonb_build_object('count', count(*), 'items', jsonb_agg(jsonb_build_object(
               'item_no', i.item_no,
               'topic', i.source_topic,
               'partition', i.source_partition,
               'offset', i.source_offset,
               'payload_sha256', encode(i.payload_sha256, 'hex'),
               'key', encode(i.record_key, 'hex'),
               'idempotency_key', i.idempotency_key,
               'edited_payload_sha256', encode(sha256(i.edited_payload), 'hex'),
               'edited_payload_bytes', octet_length(i.edited_payload),
               'inbox_ref', i.inbox_ref) ORDER BY i.item_no))
      FROM new_rows i
     GROUP BY i.request_id
     ORDER BY i.request_id;
    RETURN NULL;
END
$$;

CREATE FUNCTION berth.journal_approval() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    INSERT INTO berth.audit_events (action, request_id, details)
    VALUES (CASE NEW.decision WHEN 'approve' THEN 'approval.approved' ELSE 'approval.rejected' END,
            NEW.request_id, jsonb_build_object('comment', NEW.comment));
    PERFORM pg_notify('berth_requests', NEW.request_id::text);
    RETURN NULL;
END
$$;

CREATE FUNCTION berth.journal_intents() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO berth.audit_events (action, request_id, details)
        SELECT 'intent.journaled', n.request_id,
               jsonb_build_object('count', count(*), 'items', jsonb_agg(jsonb_build_object(
                   'item_no', n.item_no, 'replay_id', n.replay_id, 'state', n.state) ORDER BY n.item_no))
          FROM new_rows n
         GROUP BY n.request_id
         ORDER BY n.request_id;
    ELSE
        INSERT INTO berth.audit_events (action, request_id, details)
        SELECT 'intent.updated', n.request_id,
               jsonb_build_object('count', count(*), 'items', jsonb_agg(jsonb_build_object(
                   'item_no', n.item_no, 'replay_id', n.replay_id, 'from', o.state, 'to', n.state,
                   'attempts', n.attempts, 'dest_topic', n.dest_topic, 'dest_partition', n.dest_partition,
                   'dest_offset', n.dest_offset, 'error', n.error) ORDER BY n.item_no))
          FROM new_rows n
          JOIN old_rows o ON o.request_id = n.request_id AND o.item_no = n.item_no
         GROUP BY n.request_id
         ORDER BY n.request_id;
    END IF;
    RETURN NULL;
END
$$;

CREATE FUNCTION berth.journal_dispositions() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    INSERT INTO berth.audit_events (action, request_id, details)
    SELECT 'disposition.recorded', d.request_id,
           jsonb_build_object('count', count(*), 'items', jsonb_agg(jsonb_build_object(
               'item_no', d.item_no, 'topic', d.source_topic, 'partition', d.source_partition,
               'offset', d.source_offset, 'disposition', d.disposition, 'details', d.details) ORDER BY d.id))
      FROM new_rows d
     GROUP BY d.request_id
     ORDER BY d.request_id;
    RETURN NULL;
END
$$;

-- AFTER triggers of one event fire in name order: on approvals, "approvals_journal" runs before 002's
-- "approvals_settle_status", so the decision is logged before the status change it causes.
CREATE TRIGGER requests_journal AFTER INSERT OR UPDATE ON berth.requests
    FOR EACH ROW EXECUTE FUNCTION berth.journal_request();
CREATE TRIGGER request_items_journal AFTER INSERT ON berth.request_items
    REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION berth.journal_request_items();
CREATE TRIGGER approvals_journal AFTER INSERT ON berth.approvals
    FOR EACH ROW EXECUTE FUNCTION berth.journal_approval();
CREATE TRIGGER intents_journal_insert AFTER INSERT ON berth.intents
    REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION berth.journal_intents();
CREATE TRIGGER intents_journal_update AFTER UPDATE ON berth.intents
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION berth.journal_intents();
CREATE TRIGGER dispositions_journal AFTER INSERT ON berth.dispositions
    REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION berth.journal_dispositions();
