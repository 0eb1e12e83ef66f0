-- The notifications service's own database: email-sender's inbox, shaped the way that team built it
-- (another key name, lower-case status words, epoch-millisecond timestamps, no consumer column), and
-- its side effect. Applied by the demo world to its private server; never to an operator's database.
CREATE SCHEMA mailer;
CREATE TABLE mailer.delivery_log (
    notification_key text PRIMARY KEY,
    outcome          text NOT NULL CHECK (outcome IN ('received', 'sent', 'bounced', 'gave_up', 'skipped')),
    tries            smallint NOT NULL DEFAULT 1,
    first_seen_ms    bigint NOT NULL DEFAULT (extract(epoch FROM now()) * 1000)::bigint,
    changed_ms       bigint NOT NULL DEFAULT (extract(epoch FROM now()) * 1000)::bigint,
    failure          text
);
CREATE INDEX delivery_log_outcome_changed ON mailer.delivery_log (outcome, changed_ms);
CREATE TABLE mailer.email_sent (
    message_id text PRIMARY KEY,
    recipient  text NOT NULL,
    sent_at    timestamptz NOT NULL DEFAULT now()
);
GRANT USAGE ON SCHEMA mailer TO berth_operator;
GRANT SELECT ON mailer.delivery_log, mailer.email_sent TO berth_operator;
GRANT UPDATE (outcome, changed_ms, failure) ON mailer.delivery_log TO berth_operator;
