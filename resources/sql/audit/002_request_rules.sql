-- Berth audit database, version 2: the rules of remediation, enforced by the database so that raw SQL cannot
-- bypass them either.
--
--   requests       who requests is session_user (any value sent is overwritten); only `status` changes after
--                  insert, and only along the legal transitions:
--                      pending          -> approved | rejected | expired | cancelled
--                      approved         -> executing | expired | cancelled
--                      executing        -> completed | partially_failed | cancelled
--                      partially_failed -> executing            (retry of the failed items)
--                  `approved` and `executing` need enough distinct approvals, no rejection, and an unexpired
--                  request; `rejected` needs a rejection; `expired` needs the expiry to have passed;
--                  `completed` needs every intent delivered or skipped. rejected, expired, completed and
--                  cancelled are final: such a request never executes.
--   request_items  added only by the requester, while the request is pending and undecided; immutable.
--   approvals      by a member of berth_approver other than the requester, on a pending unexpired request;
--                  one decision per person; immutable. A rejection rejects the request; the last approval
--                  needed approves it.
--   intents        journaled (as pending, or skipped) and updated only while their request is executing;
--                  state moves pending -> delivered | failed | skipped, failed -> pending | delivered | skipped;
--                  a delivery is final. Never deleted.
--   dispositions   recorded only for an item of an executing request, matching the request's action, by the
--                  session user; immutable.
--
-- Expiry is checked against clock_timestamp(), not the transaction start, so a long transaction cannot
-- approve or start a request after it expired.

-- Refuses any change (a BEFORE row or statement trigger); the argument says why.
CREATE FUNCTION berth.refuse_change() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    RAISE EXCEPTION '% on berth.% is refused: %', TG_OP, TG_TABLE_NAME, TG_ARGV[0]
        USING ERRCODE = 'insufficient_privilege';
END
$$;

-- requests ---------------------------------------------------------------------------------------------------

CREATE FUNCTION berth.requests_before_insert() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF NOT pg_has_role(session_user, 'berth_operator', 'MEMBER') THEN
        RAISE EXCEPTION 'role % may not request remediation: it is not a member of berth_operator', session_user
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    NEW.requested_by := session_user;
    NEW.status := 'pending';
    NEW.created_at := now();
    NEW.status_changed_at := NEW.created_at;
    NEW.status_changed_by := session_user;
    IF NEW.expires_at IS NULL OR NEW.expires_at <= clock_timestamp() THEN
        RAISE EXCEPTION 'a request must expire in the future (expires_at %)', NEW.expires_at
            USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
END
$$;

CREATE FUNCTION berth.requests_before_update() RETURNS trigger
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

CREATE TRIGGER requests_before_insert BEFORE INSERT ON berth.requests
    FOR EACH ROW EXECUTE FUNCTION berth.requests_before_insert();
CREATE TRIGGER requests_before_update BEFORE UPDATE ON berth.requests
    FOR EACH ROW EXECUTE FUNCTION berth.requests_before_update();
CREATE TRIGGER requests_no_delete BEFORE DELETE ON berth.requests
    FOR EACH ROW EXECUTE FUNCTION berth.refuse_change('requests are kept forever; cancel one instead');
CREATE TRIGGER requests_no_truncate BEFORE TRUNCATE ON berth.requests
    FOR EACH STATEMENT EXECUTE FUNCTION berth.refuse_change('requests are kept forever; cancel one instead');

-- Marks every pending or approved request whose expiry passed as expired; returns their ids. Any desk may run
-- it (approvers cannot update requests directly), hence SECURITY DEFINER; it can only ever expire.
CREATE FUNCTION berth.expire_overdue_requests() RETURNS SETOF bigint
    LANGUAGE sql
    SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
AS $$
    UPDATE berth.requests
       SET status = 'expired'
     WHERE status IN ('pending', 'approved') AND expires_at <= clock_timestamp()
    RETURNING id
$$;

-- request_items ----------------------------------------------------------------------------------------------

CREATE FUNCTION berth.request_items_check() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    problem text;
BEGIN
    -- The share lock conflicts with the approval trigger's row lock: no decision can slip in between this
    -- check and the commit.
    PERFORM 1 FROM berth.requests WHERE id IN (SELECT request_id FROM new_rows) ORDER BY id FOR SHARE;
    FOR problem IN
        SELECT CASE
                   WHEN r.status <> 'pending' THEN
                       format('request %s is %s: items can be added only while it is pending', r.id, r.status)
                   WHEN r.requested_by <> session_user THEN
                       format('only the requester (%s) may add items to request %s', r.requested_by, r.id)
                   WHEN EXISTS (SELECT 1 FROM berth.approvals a WHERE a.request_id = r.id) THEN
                       format('request %s already has a decision: its items are frozen', r.id)
                   WHEN r.action <> 'edit_replay'
                        AND EXISTS (SELECT 1 FROM new_rows i WHERE i.request_id = r.id AND i.edited_payload IS NOT NULL) THEN
                       format('request %s is a %s: only edit_replay items carry an edited payload', r.id, r.action)
                   WHEN r.action IN ('replay', 'edit_replay')
                        AND EXISTS (SELECT 1 FROM new_rows i WHERE i.request_id = r.id AND i.source_topic IS NULL) THEN
                       format('request %s replays: each item must be pinned by topic, partition, offset and payload SHA-256', r.id)
                   WHEN r.action = 'delete'
                        AND EXISTS (SELECT 1 FROM new_rows i WHERE i.request_id = r.id AND i.inbox_ref IS NULL) THEN
                       format('request %s deletes inbox rows: each item must name one (inbox_ref)', r.id)
               END
          FROM berth.requests r
         WHERE r.id IN (SELECT request_id FROM new_rows)
         ORDER BY r.id
    LOOP
        IF problem IS NOT NULL THEN
            RAISE EXCEPTION '%', problem USING ERRCODE = 'object_not_in_prerequisite_state';
        END IF;
    END LOOP;
    RETURN NULL;
END
$$;

CREATE TRIGGER request_items_check AFTER INSERT ON berth.request_items
    REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION berth.request_items_check();
CREATE TRIGGER request_items_immutable BEFORE UPDATE OR DELETE ON berth.request_items
    FOR EACH ROW EXECUTE FUNCTION berth.refuse_change('request items are immutable');
CREATE TRIGGER request_items_no_truncate BEFORE TRUNCATE ON berth.request_items
    FOR EACH STATEMENT EXECUTE FUNCTION berth.refuse_change('request items are immutable');

-- approvals --------------------------------------------------------------------------------------------------

-- SECURITY DEFINER: it locks the request row, which an approver (no UPDATE on requests) could not do itself.
CREATE FUNCTION berth.approvals_before_insert() RETURNS trigger
    LANGUAGE plpgsql
    SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    r berth.requests%ROWTYPE;
BEGIN
    NEW.approver := session_user;
    NEW.at := clock_timestamp();
    NEW.comment := coalesce(NEW.comment, '');
    IF NOT pg_has_role(session_user, 'berth_approver', 'MEMBER') THEN
        RAISE EXCEPTION 'role % may not approve or reject: it is not a member of berth_approver', session_user
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    -- The row lock serialises decisions on one request (and item additions, see request_items_check).
    SELECT * INTO r FROM berth.requests WHERE id = NEW.request_id FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'request % does not exist', NEW.request_id USING ERRCODE = 'foreign_key_violation';
    END IF;
    IF r.requested_by = session_user THEN
        RAISE EXCEPTION 'the approver must differ from the requester: % requested request % and cannot approve or reject it',
            session_user, r.id
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF r.status <> 'pending' THEN
        RAISE EXCEPTION 'request % is %: only pending requests can be approved or rejected', r.id, r.status
            USING ERRCODE = 'object_not_in_prerequisite_state';
    END IF;
    IF clock_timestamp() >= r.expires_at THEN
        RAISE EXCEPTION 'request % expired at %: it can no longer be approved or rejected', r.id, r.expires_at
            USING ERRCODE = 'object_not_in_prerequisite_state';
    END IF;
    IF NEW.decision = 'approve' AND NOT EXISTS (SELECT 1 FROM berth.request_items WHERE request_id = r.id) THEN
        RAISE EXCEPTION 'request % has no items to approve', r.id
            USING ERRCODE = 'object_not_in_prerequisite_state';
    END IF;
    RETURN NEW;
END
$$;

-- SECURITY DEFINER: the decision moves the request's status, which approvers may not update directly. The
-- status trigger above still checks the transition, with session_user (the approver) as the one who moved it.
CREATE FUNCTION berth.approvals_settle_status() RETURNS trigger
    LANGUAGE plpgsql
    SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    given  integer;
    needed integer;
BEGIN
    IF NEW.decision = 'reject' THEN
        UPDATE berth.requests SET status = 'rejected' WHERE id = NEW.request_id;
    ELSE
        SELECT count(*) INTO given FROM berth.approvals WHERE request_id = NEW.request_id AND decision = 'approve';
        SELECT required_approvals INTO needed FROM berth.requests WHERE id = NEW.request_id;
        IF given >= needed THEN
            UPDATE berth.requests SET status = 'approved' WHERE id = NEW.request_id;
        END IF;
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER approvals_before_insert BEFORE INSERT ON berth.approvals
    FOR EACH ROW EXECUTE FUNCTION berth.approvals_before_insert();
CREATE TRIGGER approvals_settle_status AFTER INSERT ON berth.approvals
    FOR EACH ROW EXECUTE FUNCTION berth.approvals_settle_status();
CREATE TRIGGER approvals_immutable BEFORE UPDATE OR DELETE ON berth.approvals
    FOR EACH ROW EXECUTE FUNCTION berth.refuse_change('decisions are final');
CREATE TRIGGER approvals_no_truncate BEFORE TRUNCATE ON berth.approvals
    FOR EACH STATEMENT EXECUTE FUNCTION berth.refuse_change('decisions are final');

-- intents ----------------------------------------------------------------------------------------------------

CREATE FUNCTION berth.intents_before_update() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF NEW.request_id <> OLD.request_id OR NEW.item_no <> OLD.item_no OR NEW.replay_id <> OLD.replay_id
       OR NEW.created_at <> OLD.created_at THEN
        RAISE EXCEPTION 'intent %: only its delivery state may change', OLD.replay_id
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF NEW.state <> OLD.state
       AND NOT ((OLD.state = 'pending' AND NEW.state IN ('delivered', 'failed', 'skipped'))
                OR (OLD.state = 'failed' AND NEW.state IN ('pending', 'delivered', 'skipped'))) THEN
        RAISE EXCEPTION 'intent % is %: it cannot become %', OLD.replay_id, OLD.state, NEW.state
            USING ERRCODE = 'object_not_in_prerequisite_state';
    END IF;
    IF OLD.state = 'delivered'
       AND (NEW.dest_topic, NEW.dest_partition, NEW.dest_offset)
           IS DISTINCT FROM (OLD.dest_topic, OLD.dest_partition, OLD.dest_offset) THEN
        RAISE EXCEPTION 'intent % was delivered: its delivery is final', OLD.replay_id
            USING ERRCODE = 'object_not_in_prerequisite_state';
    END IF;
    NEW.updated_at := clock_timestamp();
    RETURN NEW;
END
$$;

-- Statement level, so a batch of thousands of intents costs one check per request, not one per row.
CREATE FUNCTION berth.intents_check() RETURNS trigger
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
    IF TG_OP = 'INSERT' AND EXISTS (SELECT 1 FROM new_rows WHERE state NOT IN ('pending', 'skipped')) THEN
        RAISE EXCEPTION 'an intent is journaled as pending (or skipped) before anything is produced'
            USING ERRCODE = 'check_violation';
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER intents_before_update BEFORE UPDATE ON berth.intents
    FOR EACH ROW EXECUTE FUNCTION berth.intents_before_update();
CREATE TRIGGER intents_check_insert AFTER INSERT ON berth.intents
    REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION berth.intents_check();
CREATE TRIGGER intents_check_update AFTER UPDATE ON berth.intents
    REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION berth.intents_check();
CREATE TRIGGER intents_no_delete BEFORE DELETE ON berth.intents
    FOR EACH ROW EXECUTE FUNCTION berth.refuse_change('the execution journal is kept');
CREATE TRIGGER intents_no_truncate BEFORE TRUNCATE ON berth.intents
    FOR EACH STATEMENT EXECUTE FUNCTION berth.refuse_change('the execution journal is kept');

-- dispositions -----------------------------------------------------------------------------------------------

CREATE FUNCTION berth.dispositions_check() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    problem text;
BEGIN
    PERFORM 1 FROM berth.requests WHERE id IN (SELECT request_id FROM new_rows) ORDER BY id FOR SHARE;
    SELECT CASE
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
      JOIN berth.requests r ON r.id = d.request_id
      JOIN berth.request_items i ON i.request_id = d.request_id AND i.item_no = d.item_no
     WHERE r.status <> 'executing'
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

CREATE TRIGGER dispositions_check AFTER INSERT ON berth.dispositions
    REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION berth.dispositions_check();
CREATE TRIGGER dispositions_immutable BEFORE UPDATE OR DELETE ON berth.dispositions
    FOR EACH ROW EXECUTE FUNCTION berth.refuse_change('dispositions are history; record a new one');
CREATE TRIGGER dispositions_no_truncate BEFORE TRUNCATE ON berth.dispositions
    FOR EACH STATEMENT EXECUTE FUNCTION berth.refuse_change('dispositions are history; record a new one');
