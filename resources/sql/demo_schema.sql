-- The demo world's consumer databases: the two inbox tables of the seed articles, their side effects,
-- and an outbox. Applied by the demo world to its private server; never to an operator's database.

-- seed 000: inbox of idempotent consumers, one row per (consumer, message id)
CREATE TABLE processed_message (
    consumer_name text NOT NULL,
    message_id    text NOT NULL,
    status        text NOT NULL CHECK (status IN ('IN_PROGRESS', 'COMPLETED', 'FAILED_RETRYABLE',
                                                  'FAILED_TERMINAL', 'PARKED', 'SKIPPED')),
    first_seen_at timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now(),
    error_code    text,
    PRIMARY KEY (consumer_name, message_id)
);
CREATE INDEX processed_message_status_updated ON processed_message (consumer_name, status, updated_at);

-- seed 001: transactional inbox keyed by the producer's idempotency key
CREATE TABLE processed_events (
    idempotency_key varchar(255) PRIMARY KEY,
    consumer_group  varchar(255) NOT NULL,
    topic           varchar(255) NOT NULL,
    status          varchar(20)  NOT NULL,  -- RECEIVED, PROCESSING, COMPLETED, FAILED
    attempt_count   int          NOT NULL DEFAULT 1,
    last_error      text,
    received_at     timestamptz  NOT NULL DEFAULT now(),
    updated_at      timestamptz  NOT NULL DEFAULT now()
);
CREATE INDEX idx_processed_events_received_at ON processed_events (received_at);
CREATE INDEX idx_processed_events_status ON processed_events (consumer_group, status, updated_at);

-- side effects of the reference consumers
CREATE TABLE order_projection (
    order_id   text PRIMARY KEY,
    customer   text NOT NULL,
    amount     numeric(12, 2) NOT NULL,
    version    int NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE payment_capture (
    payment_id  text PRIMARY KEY,
    order_id    text NOT NULL,
    amount      numeric(12, 2) NOT NULL,
    captured_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE email_sent (
    message_id text PRIMARY KEY,
    recipient  text NOT NULL,
    sent_at    timestamptz NOT NULL DEFAULT now()
);

-- transactional outbox of payment-capture: written with the capture, published by a relay
CREATE TABLE outbox (
    id            bigserial PRIMARY KEY,
    aggregate_id  text NOT NULL,
    topic         text NOT NULL,
    event_type    text NOT NULL,
    payload       jsonb NOT NULL,
    status        text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'published')),
    created_at    timestamptz NOT NULL DEFAULT now(),
    published_at  timestamptz
);
CREATE INDEX outbox_pending ON outbox (created_at) WHERE status = 'pending';

-- Operators log in as themselves: identity is the database role, never a name typed into the app.
DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'berth_operator') THEN
        CREATE ROLE berth_operator NOLOGIN;
    END IF;
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'berth_approver') THEN
        CREATE ROLE berth_approver NOLOGIN;
    END IF;
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'alice') THEN
        CREATE ROLE alice LOGIN IN ROLE berth_operator, berth_approver;
    END IF;
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'bob') THEN
        CREATE ROLE bob LOGIN IN ROLE berth_operator, berth_approver;
    END IF;
END
$$;
GRANT SELECT ON processed_message, processed_events, outbox, order_projection, payment_capture, email_sent
    TO berth_operator;
GRANT UPDATE (status, updated_at, error_code) ON processed_message TO berth_operator;
GRANT UPDATE (status, updated_at, last_error) ON processed_events TO berth_operator;
