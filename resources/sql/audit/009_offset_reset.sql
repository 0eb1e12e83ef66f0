-- Berth audit database: offset reset as a remediation request (ARCHITECTURE.md, Data flows: Remediation).
--
-- A reset_offsets request moves one consumer group's committed offsets on one topic. Its items are the
-- partitions it moves, each pinned in offset_reset: {"group", "topic", "partition", "from", "to"} (from: the
-- committed offset the dry run saw, -1 for none; to: the target). The approver approves exactly these
-- targets; the executor commits nothing else. There are no intents or dispositions: the execution is
-- journaled as audit events offsets.reset_intent (before the commit), offsets.reset or
-- offsets.reset_refused, and offsets.verified (the committed offsets read back), each accepted only while
-- its reset_offsets request is executing.
--
-- Self-contained: it names constraints by what they check, not by their generated names, so it applies
-- after any other migration of the same version range.

DO $$
DECLARE
    c record;
BEGIN
    FOR c IN
        SELECT conname FROM pg_catalog.pg_constraint
         WHERE conrelid = 'berth.requests'::regclass AND contype = 'c'
           AND pg_catalog.pg_get_constraintdef(oid) LIKE '%edit_replay%'
    LOOP
        EXECUTE format('ALTER TABLE berth.requests DROP CONSTRAINT %I', c.conname);
    END LOOP;
    FOR c IN
        SELECT conname FROM pg_catalog.pg_constraint
         WHERE conrelid = 'berth.request_items'::regclass AND contype = 'c'
           AND pg_catalog.pg_get_constraintdef(oid) LIKE '%inbox_ref IS NOT NULL%'
           AND pg_catalog.pg_get_constraintdef(oid) NOT LIKE '%payload_sha256%'
    LOOP
        EXECUTE format('ALTER TABLE berth.request_items DROP CONSTRAINT %I', c.conname);
    END LOOP;
END
$$;

ALTER TABLE berth.requests ADD CONSTRAINT requests_action_known
    CHECK (action IN ('replay', 'edit_replay', 'skip', 'delete', 'reset_offsets'));

ALTER TABLE berth.request_items ADD COLUMN offset_reset jsonb;
ALTER TABLE berth.request_items ADD CONSTRAINT request_items_names_its_target
    CHECK (source_topic IS NOT NULL OR inbox_ref IS NOT NULL OR offset_reset IS NOT NULL);
ALTER TABLE berth.request_items ADD CONSTRAINT request_items_offset_reset_shape
    CHECK (offset_reset IS NULL
           OR (jsonb_typeof(offset_reset) = 'object'
               AND jsonb_typeof(offset_reset -> 'group') = 'string'
               AND jsonb_typeof(offset_reset -> 'topic') = 'string'
               AND jsonb_typeof(offset_reset -> 'partition') = 'number'
               AND jsonb_typeof(offset_reset -> 'from') = 'number'
               AND jsonb_typeof(offset_reset -> 'to') = 'number'
               AND (offset_reset ->> 'partition')::numeric >= 0
               AND (offset_reset ->> 'to')::numeric >= 0
               AND source_topic IS NULL AND inbox_ref IS NULL AND edited_payload IS NULL));

-- A reset request holds partitions of one group and topic, each once; other requests hold none.
CREATE FUNCTION berth.request_items_reset_check() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    problem text;
BEGIN
    SELECT CASE
               WHEN r.action = 'reset_offsets' AND i.offset_reset IS NULL THEN
                   format('request %s resets offsets: each item must name a partition and its target (offset_reset)', r.id)
               WHEN r.action <> 'reset_offsets' AND i.offset_reset IS NOT NULL THEN
                   format('request %s is a %s: only reset_offsets items carry an offset_reset', r.id, r.action)
           END
      INTO problem
      FROM new_rows i
      JOIN berth.requests r ON r.id = i.request_id
     WHERE (r.action = 'reset_offsets') <> (i.offset_reset IS NOT NULL)
     LIMIT 1;
    IF problem IS NULL THEN
        SELECT format('request %s resets one group on one topic, each partition once', i.request_id)
          INTO problem
          FROM berth.request_items i
         WHERE i.request_id IN (SELECT request_id FROM new_rows) AND i.offset_reset IS NOT NULL
         GROUP BY i.request_id
        HAVING count(DISTINCT i.offset_reset ->> 'group') > 1 OR count(DISTINCT i.offset_reset ->> 'topic') > 1
            OR count(DISTINCT i.offset_reset ->> 'partition') <> count(*)
         LIMIT 1;
    END IF;
    IF problem IS NOT NULL THEN
        RAISE EXCEPTION '%', problem USING ERRCODE = 'object_not_in_prerequisite_state';
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER request_items_reset_check AFTER INSERT ON berth.request_items
    REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION berth.request_items_reset_check();

-- The reset's journal is written only while its request executes: nothing is recorded as moved for a
-- request that was not approved, expired, or is not a reset.
CREATE FUNCTION berth.audit_events_offsets_check() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    r record;
BEGIN
    IF split_part(NEW.action, '.', 1) <> 'offsets' THEN
        RETURN NEW;
    END IF;
    IF NEW.action NOT IN ('offsets.reset_intent', 'offsets.reset', 'offsets.reset_refused', 'offsets.verified') THEN
        RAISE EXCEPTION 'audit action % is reserved', NEW.action USING ERRCODE = 'insufficient_privilege';
    END IF;
    SELECT id, action, status INTO r FROM berth.requests WHERE id = NEW.request_id;
    IF NOT FOUND OR r.action <> 'reset_offsets' THEN
        RAISE EXCEPTION 'audit action % belongs to a reset_offsets request', NEW.action
            USING ERRCODE = 'object_not_in_prerequisite_state';
    END IF;
    IF r.status <> 'executing' THEN
        RAISE EXCEPTION 'request % is %: offsets are reset only while it is executing', r.id, r.status
            USING ERRCODE = 'object_not_in_prerequisite_state';
    END IF;
    RETURN NEW;
END
$$;

-- Fires before the chain trigger (names sort): a refused event never takes a seq.
CREATE TRIGGER audit_events_a_offsets BEFORE INSERT ON berth.audit_events
    FOR EACH ROW EXECUTE FUNCTION berth.audit_events_offsets_check();

-- request.items_added carries each reset item's target, so the chain holds what was approved.
CREATE OR REPLACE FUNCTION berth.journal_request_items() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    INSERT INTO berth.audit_events (action, request_id, details)
    SELECT 'request.items_added', i.request_id,
           jsonb_build_object('count', count(*), 'items', jsonb_agg(jsonb_strip_nulls(jsonb_build_object(
               'offset_reset', i.offset_reset)) || jsonb_build_object(
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
