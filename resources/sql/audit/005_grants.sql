-- Berth audit database, version 5: who may do what. People log in as themselves (LOGIN roles) and are made
-- members of the groups by the DBA, e.g. `GRANT berth_operator, berth_approver TO alice;`. The objects belong
-- to the role that ran the migrations; Berth never needs it afterwards.
--
--   berth_operator  SELECT on every berth table; INSERT on requests and request_items (request remediation);
--                   UPDATE (status) on requests (cancel, expire, and the executor's approved -> executing ->
--                   completed | partially_failed); INSERT and UPDATE (delivery columns) on intents; INSERT on
--                   dispositions; INSERT on audit_events (Berth's own events: verify, export, pause...).
--   berth_approver  SELECT on every berth table; INSERT on approvals (approve or reject); INSERT on
--                   audit_events.
--   both            EXECUTE on berth.expire_overdue_requests() and berth.audit_canonical_text().
--   nobody          UPDATE, DELETE or TRUNCATE on audit_events, approvals, request_items or dispositions;
--                   DELETE on requests or intents. Triggers (002, 003) refuse
--                   these even to the owner, and enforce what a grant cannot express: approver differs from
--                   requester, legal status transitions, approvals before execution, expiry.
--   PUBLIC          nothing in schema berth.
-- A member of both groups (a small team) may request and approve, but never approve their own request.

REVOKE ALL ON SCHEMA berth FROM PUBLIC;
REVOKE ALL ON ALL TABLES IN SCHEMA berth FROM PUBLIC;
REVOKE ALL ON ALL SEQUENCES IN SCHEMA berth FROM PUBLIC;
REVOKE ALL ON ALL FUNCTIONS IN SCHEMA berth FROM PUBLIC;

GRANT USAGE ON SCHEMA berth TO berth_operator, berth_approver;
GRANT SELECT ON berth.schema_version, berth.requests, berth.request_items, berth.approvals, berth.intents,
    berth.dispositions, berth.audit_events
    TO berth_operator, berth_approver;

GRANT INSERT ON berth.requests, berth.request_items TO berth_operator;
GRANT UPDATE (status) ON berth.requests TO berth_operator;
GRANT INSERT ON berth.intents TO berth_operator;
GRANT UPDATE (state, dest_topic, dest_partition, dest_offset, error, attempts) ON berth.intents TO berth_operator;
GRANT INSERT ON berth.dispositions TO berth_operator;

GRANT INSERT ON berth.approvals TO berth_approver;

GRANT INSERT ON berth.audit_events TO berth_operator, berth_approver;

GRANT EXECUTE ON FUNCTION berth.expire_overdue_requests() TO berth_operator, berth_approver;
GRANT EXECUTE ON FUNCTION berth.audit_escape(text) TO berth_operator, berth_approver;
GRANT EXECUTE ON FUNCTION berth.audit_canonical_text(bigint, timestamptz, text, text, bigint, jsonb)
    TO berth_operator, berth_approver;
