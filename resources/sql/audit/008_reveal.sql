-- Berth audit database, version 8: revealing masked values.
--
-- The delivery policy masks fields, headers and keys of some topics' records (ARCHITECTURE.md, Contracts:
-- masking). Showing one record unmasked is a deliberate act: an audit event 'record.reveal' that only a
-- member of berth_revealer can write, naming who (session_user, set by the chain trigger), when, the record's
-- coordinates, the field paths and the reason, and never the values: its details hold exactly the keys
-- topic, partition, offset, fields and reason. The database refuses anything else, so no client can reveal
-- without the row, write it for someone else, or carry values in it.

DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_roles WHERE rolname = 'berth_revealer') THEN
        BEGIN
            CREATE ROLE berth_revealer NOLOGIN;
        EXCEPTION WHEN duplicate_object OR unique_violation THEN
            NULL;
        END;
    END IF;
END
$$;

CREATE FUNCTION berth.audit_events_reveal_check() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF split_part(NEW.action, '.', 2) <> 'reveal' AND NEW.action <> 'record.reveal' THEN
        RETURN NEW;
    END IF;
    IF NEW.action <> 'record.reveal' THEN
        RAISE EXCEPTION 'audit action % is reserved', NEW.action USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF NOT pg_has_role(session_user, 'berth_revealer', 'MEMBER') THEN
        RAISE EXCEPTION 'role % may not reveal masked values: it is not a member of berth_revealer', session_user
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF jsonb_typeof(NEW.details) <> 'object'
       OR (SELECT array_agg(k ORDER BY k) FROM jsonb_object_keys(NEW.details) k)
          <> ARRAY['fields', 'offset', 'partition', 'reason', 'topic']
       OR jsonb_typeof(NEW.details -> 'topic') <> 'string'
       OR jsonb_typeof(NEW.details -> 'partition') <> 'number'
       OR jsonb_typeof(NEW.details -> 'offset') <> 'number'
       OR jsonb_typeof(NEW.details -> 'fields') <> 'array'
       OR jsonb_typeof(NEW.details -> 'reason') <> 'string'
       OR length(btrim(NEW.details ->> 'reason')) < 3 THEN
        RAISE EXCEPTION 'a reveal records exactly topic, partition, offset, fields and a reason (no values)'
            USING ERRCODE = 'check_violation';
    END IF;
    IF EXISTS (SELECT 1 FROM jsonb_array_elements(NEW.details -> 'fields') f
               WHERE jsonb_typeof(f) <> 'string' OR left(f #>> '{}', 1) NOT IN ('$', 'h', 'k')) THEN
        RAISE EXCEPTION 'reveal fields are paths ($...), header:NAME or key' USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
END
$$;

-- Fires before the chain trigger (names sort): a refused reveal never takes a seq.
CREATE TRIGGER audit_events_a_reveal BEFORE INSERT ON berth.audit_events
    FOR EACH ROW EXECUTE FUNCTION berth.audit_events_reveal_check();

GRANT USAGE ON SCHEMA berth TO berth_revealer;
GRANT SELECT ON berth.schema_version, berth.audit_events TO berth_revealer;
GRANT INSERT ON berth.audit_events TO berth_revealer;
GRANT EXECUTE ON FUNCTION berth.audit_escape(text) TO berth_revealer;
GRANT EXECUTE ON FUNCTION berth.audit_canonical_text(bigint, timestamptz, text, text, bigint, jsonb)
    TO berth_revealer;
