-- Berth audit database, version 1: the group roles and the tables of audited remediation.
--
-- Migrations are applied by AuditMigrator (services/audit/auditmigrator.cpp) in version order, all missing
-- ones in one transaction under pg_advisory_xact_lock, and recorded in berth.schema_version (created by the
-- migrator itself). A migration therefore contains no transaction control, and is never edited once shipped:
-- a change is a new file.
--
-- Identity is the database role: every "who" column is filled from session_user by the database (defaults,
-- and triggers that overwrite whatever a client sends), never from a name typed into the app.

-- Group roles; people are LOGIN roles that are members. The demo schema creates the same two groups, so each
-- is created only when missing; a concurrent creation from another database of the cluster is tolerated.
DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_roles WHERE rolname = 'berth_operator') THEN
        BEGIN
            CREATE ROLE berth_operator NOLOGIN;
        EXCEPTION WHEN duplicate_object OR unique_violation THEN
            NULL;
        END;
    END IF;
    IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_roles WHERE rolname = 'berth_approver') THEN
        BEGIN
            CREATE ROLE berth_approver NOLOGIN;
        EXCEPTION WHEN duplicate_object OR unique_violation THEN
            NULL;
        END;
    END IF;
END
$$;

-- A remediation request: what to do, to which items (request_items), why, and how it went.
-- Only `status` ever changes after insert (002 enforces the legal transitions).
CREATE TABLE berth.requests (
    id                 bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    action             text NOT NULL CHECK (action IN ('replay', 'edit_replay', 'skip', 'delete')),
    requested_by       text NOT NULL DEFAULT session_user,
    created_at         timestamptz NOT NULL DEFAULT now(),
    expires_at         timestamptz NOT NULL DEFAULT now() + interval '24 hours',
    status             text NOT NULL DEFAULT 'pending'
        CHECK (status IN ('pending', 'approved', 'rejected', 'expired', 'executing', 'completed',
                          'partially_failed', 'cancelled')),
    reason_code        text,
    reason             text NOT NULL DEFAULT '',
    ticket             text,
    -- NULL: each item goes back to its original topic
    destination_topic  text,
    -- messages per second; NULL: unlimited
    rate_limit         double precision CHECK (rate_limit IS NULL OR rate_limit > 0),
    dry_run            jsonb NOT NULL DEFAULT '{}',
    policy_verdict     text,
    required_approvals integer NOT NULL DEFAULT 1 CHECK (required_approvals BETWEEN 1 AND 10),
    status_changed_at  timestamptz NOT NULL DEFAULT now(),
    status_changed_by  text NOT NULL DEFAULT session_user,
    CHECK (expires_at > created_at)
);
CREATE INDEX requests_status_created ON berth.requests (status, created_at);
CREATE INDEX requests_requested_by ON berth.requests (requested_by, created_at);

-- The items a request acts on, pinned so the executor can refuse anything else: a DLQ record by
-- topic/partition/offset and the SHA-256 of its payload, and/or an inbox row (inbox_ref: mapping name and the
-- row's key columns, as the inbox mapping defines them). Immutable.
CREATE TABLE berth.request_items (
    request_id       bigint NOT NULL REFERENCES berth.requests (id),
    item_no          integer NOT NULL CHECK (item_no >= 1),
    source_topic     text,
    source_partition integer CHECK (source_partition >= 0),
    source_offset    bigint CHECK (source_offset >= 0),
    payload_sha256   bytea CHECK (octet_length(payload_sha256) = 32),
    record_key       bytea,
    idempotency_key  text,
    edited_payload   bytea,
    inbox_ref        jsonb,
    PRIMARY KEY (request_id, item_no),
    -- a DLQ record is pinned completely or not at all
    CHECK ((source_topic IS NULL AND source_partition IS NULL AND source_offset IS NULL)
           OR (source_topic IS NOT NULL AND source_partition IS NOT NULL AND source_offset IS NOT NULL
               AND payload_sha256 IS NOT NULL)),
    CHECK (source_topic IS NOT NULL OR inbox_ref IS NOT NULL)
);
CREATE UNIQUE INDEX request_items_source ON berth.request_items (request_id, source_topic, source_partition,
                                                                  source_offset)
    WHERE source_topic IS NOT NULL;

-- One decision per person and request. Append-only.
CREATE TABLE berth.approvals (
    request_id bigint NOT NULL REFERENCES berth.requests (id),
    approver   text NOT NULL DEFAULT session_user,
    decision   text NOT NULL CHECK (decision IN ('approve', 'reject')),
    comment    text NOT NULL DEFAULT '',
    at         timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (request_id, approver)
);

-- The execution journal: one intent per item, written before anything is produced, updated with the
-- delivery report. replay_id is what the produced record carries (header berth-replay-id), so a restart can
-- find out whether an intent was delivered before producing again.
CREATE TABLE berth.intents (
    request_id     bigint NOT NULL,
    item_no        integer NOT NULL,
    replay_id      text NOT NULL UNIQUE CHECK (replay_id <> ''),
    state          text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'failed', 'skipped')),
    dest_topic     text,
    dest_partition integer,
    dest_offset    bigint,
    error          text,
    attempts       integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    created_at     timestamptz NOT NULL DEFAULT now(),
    updated_at     timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (request_id, item_no),
    FOREIGN KEY (request_id, item_no) REFERENCES berth.request_items (request_id, item_no),
    CHECK (state <> 'delivered' OR (dest_partition IS NOT NULL AND dest_offset IS NOT NULL))
);
CREATE INDEX intents_open ON berth.intents (request_id, item_no) WHERE state IN ('pending', 'failed');

-- What became of a DLQ record (or inbox row): history, newest last; the current disposition of a source is
-- its row with the highest id. Append-only.
CREATE TABLE berth.dispositions (
    id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    request_id       bigint NOT NULL,
    item_no          integer NOT NULL,
    source_topic     text,
    source_partition integer,
    source_offset    bigint,
    disposition      text NOT NULL CHECK (disposition IN ('replayed', 'skipped', 'deleted')),
    disposed_by      text NOT NULL DEFAULT session_user,
    at               timestamptz NOT NULL DEFAULT now(),
    -- e.g. the deleted inbox row's content
    details          jsonb NOT NULL DEFAULT '{}',
    FOREIGN KEY (request_id, item_no) REFERENCES berth.request_items (request_id, item_no)
);
CREATE INDEX dispositions_source ON berth.dispositions (source_topic, source_partition, source_offset, id);
CREATE INDEX dispositions_request ON berth.dispositions (request_id, item_no);
