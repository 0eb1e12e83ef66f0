-- Berth audit database, version 3: the append-only, hash-chained audit log.
--
-- Every row carries hash = sha256(prev_hash || convert_to(canonical_text, 'UTF8')), where prev_hash is the
-- hash of the row before it (seq - 1), and 32 zero bytes for seq 1. The BEFORE INSERT trigger assigns seq,
-- at, actor, prev_hash and hash itself (whatever the client sent is overwritten) while holding the chain lock,
-- pg_advisory_xact_lock(4775313501839250756) ('BERTHAUD'), which it keeps until commit: inserts are
-- serialised, seq has no gaps, and the chain follows commit order. So a missing row shows as a gap, a changed
-- row as a hash that no longer matches, and a re-hashed row as a successor whose prev_hash no longer matches.
-- (The previous row is found through the primary key index. A one-row "chain head" table updated per insert
-- would be quadratic: a transaction writing thousands of events keeps every version of that row alive.)
-- A hash chain cannot by itself reveal rows cut from its end: verify reports the last seq and hash, which
-- an export records, so a later verify can be compared with it.
--
-- Canonical row text, version 1 (berth.audit_canonical_text; recomputed independently by the client in
-- services/audit/auditchain.cpp): seven fields joined by a line feed (U+000A):
--     1. the literal  berth-audit-v1
--     2. seq          decimal, no sign, no leading zeros
--     3. at           UTC, YYYY-MM-DDTHH:MM:SS.ffffffZ (always six fractional digits)
--     4. actor        escaped
--     5. action       escaped
--     6. request_id   decimal, or the empty string when NULL
--     7. details      escaped jsonb text output (details::text: jsonb's own normalised rendering, keys
--                     ordered by length then bytes, ", " and ": " separators, no line feeds)
-- "escaped" means: each backslash doubled, then each line feed replaced by backslash + n. No escaped field
-- contains a bare line feed, so the separator cannot occur unescaped and the text splits back unambiguously.
-- The text is hashed as UTF-8 (the database encoding Berth requires).
--
-- Append-only: UPDATE, DELETE and TRUNCATE are refused by triggers, even for the table owner; nobody is
-- granted those privileges either (005). Only a superuser who disables triggers can change a row, and
-- `berth audit verify` then finds it.
--
-- Actions written by the database's own journal triggers (004) are reserved: their first segment is request,
-- approval, intent or disposition, and a client cannot insert such an action directly.

CREATE TABLE berth.audit_events (
    seq        bigint PRIMARY KEY,
    at         timestamptz NOT NULL DEFAULT clock_timestamp(),
    actor      text NOT NULL DEFAULT session_user,
    action     text NOT NULL CHECK (action ~ '^[a-z][a-z0-9_.-]*$'),
    request_id bigint REFERENCES berth.requests (id),
    details    jsonb NOT NULL DEFAULT '{}',
    prev_hash  bytea NOT NULL CHECK (octet_length(prev_hash) = 32),
    hash       bytea NOT NULL CHECK (octet_length(hash) = 32)
);
CREATE INDEX audit_events_actor ON berth.audit_events (actor, seq);
CREATE INDEX audit_events_action ON berth.audit_events (action, seq);
CREATE INDEX audit_events_request ON berth.audit_events (request_id, seq) WHERE request_id IS NOT NULL;
CREATE INDEX audit_events_at ON berth.audit_events (at);

-- The two text functions have no SET clause, so the planner can inline them into the chain trigger (a SET
-- clause costs a configuration save and restore per call); every name in them is schema-qualified instead, so
-- a caller's search_path cannot substitute another function or operator.
CREATE FUNCTION berth.audit_escape(value text) RETURNS text
    LANGUAGE sql
    IMMUTABLE STRICT PARALLEL SAFE
AS $$
    SELECT pg_catalog.replace(pg_catalog.replace(value, E'\\', E'\\\\'), E'\n', E'\\n')
$$;

CREATE FUNCTION berth.audit_canonical_text(seq bigint, at timestamptz, actor text, action text,
                                           request_id bigint, details jsonb) RETURNS text
    LANGUAGE sql
    STABLE PARALLEL SAFE
AS $$
    SELECT 'berth-audit-v1'::pg_catalog.text
           OPERATOR(pg_catalog.||) E'\n' OPERATOR(pg_catalog.||) seq::pg_catalog.text
           OPERATOR(pg_catalog.||) E'\n' OPERATOR(pg_catalog.||)
               pg_catalog.to_char(pg_catalog.timezone('UTC', at), 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')
           OPERATOR(pg_catalog.||) E'\n' OPERATOR(pg_catalog.||) berth.audit_escape(actor)
           OPERATOR(pg_catalog.||) E'\n' OPERATOR(pg_catalog.||) berth.audit_escape(action)
           OPERATOR(pg_catalog.||) E'\n' OPERATOR(pg_catalog.||) COALESCE(request_id::pg_catalog.text, '')
           OPERATOR(pg_catalog.||) E'\n' OPERATOR(pg_catalog.||) berth.audit_escape(details::pg_catalog.text)
$$;

CREATE FUNCTION berth.audit_events_chain() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    last_seq  bigint;
    last_hash bytea;
BEGIN
    -- Depth 1 is a direct insert (client SQL); the journal triggers insert from depth 2 and deeper.
    IF pg_trigger_depth() = 1
       AND split_part(NEW.action, '.', 1) IN ('request', 'approval', 'intent', 'disposition') THEN
        RAISE EXCEPTION 'audit action % is reserved for the database''s own journal', NEW.action
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    -- Held until commit, and taken before reading the last row: the next writer waits, then sees this row.
    PERFORM pg_advisory_xact_lock(4775313501839250756);
    SELECT e.seq, e.hash INTO last_seq, last_hash FROM berth.audit_events e ORDER BY e.seq DESC LIMIT 1;
    NEW.seq := coalesce(last_seq, 0) + 1;
    NEW.at := clock_timestamp();
    NEW.actor := session_user;
    NEW.details := coalesce(NEW.details, '{}'::jsonb);
    NEW.prev_hash := coalesce(last_hash, decode(repeat('00', 32), 'hex'));
    NEW.hash := sha256(NEW.prev_hash
                       || convert_to(berth.audit_canonical_text(NEW.seq, NEW.at, NEW.actor, NEW.action,
                                                                NEW.request_id, NEW.details), 'UTF8'));
    RETURN NEW;
END
$$;

CREATE TRIGGER audit_events_chain BEFORE INSERT ON berth.audit_events
    FOR EACH ROW EXECUTE FUNCTION berth.audit_events_chain();
CREATE TRIGGER audit_events_append_only BEFORE UPDATE OR DELETE ON berth.audit_events
    FOR EACH ROW EXECUTE FUNCTION berth.refuse_change('the audit log is append-only');
CREATE TRIGGER audit_events_no_truncate BEFORE TRUNCATE ON berth.audit_events
    FOR EACH STATEMENT EXECUTE FUNCTION berth.refuse_change('the audit log is append-only');
