-- Berth audit database, version 12: masked keys are pinned by digest, never stored.
--
-- A request item pins its DLQ record by coordinates and the payload's SHA-256; until version 11 it also
-- stored the record key and the idempotency key as they are. Where the delivery policy masks them
-- (ARCHITECTURE.md, Masking), the item now holds only their SHA-256 (record_key_sha256,
-- idempotency_key_sha256), and an inbox row it names carries the message id's SHA-256 (inbox_ref
-- "messageIdSha256") instead of the id. The executor compares the re-read record's key with the digest; the
-- verifier re-derives the idempotency key from the re-read record and keeps it only when its digest matches;
-- the executor finds an inbox row again by its message id's digest among the mapping's rows in the state
-- the request names. Unmasked items keep their keys as before (operators search by them).
--
-- What the database enforces: an item carries a key or its digest, never both (a masked value cannot sit
-- beside its digest), and an inbox_ref names its row by id or by digest, never both. It cannot know which
-- topics a policy masks (the policy is a file on the desks), so it cannot refuse a plain key of a masked
-- topic; the request builder decides that (RequestItemDigests::seal).
--
-- request.items_added lists an item's digests as key_sha256 and idempotency_key_sha256 (hex) when set.

ALTER TABLE berth.request_items
    ADD COLUMN record_key_sha256 bytea CHECK (octet_length(record_key_sha256) = 32),
    ADD COLUMN idempotency_key_sha256 bytea CHECK (octet_length(idempotency_key_sha256) = 32),
    ADD CONSTRAINT request_items_key_or_digest CHECK (record_key IS NULL OR record_key_sha256 IS NULL),
    ADD CONSTRAINT request_items_idempotency_key_or_digest
        CHECK (idempotency_key IS NULL OR idempotency_key_sha256 IS NULL),
    ADD CONSTRAINT request_items_message_id_or_digest
        CHECK (inbox_ref IS NULL OR NOT (inbox_ref ? 'messageId' AND inbox_ref ? 'messageIdSha256'));

CREATE OR REPLACE FUNCTION berth.journal_request_items() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    INSERT INTO berth.audit_events (action, request_id, details)
    SELECT 'request.items_added', i.request_id,
           jsonb_build_object('count', count(*), 'items', jsonb_agg(jsonb_strip_nulls(jsonb_build_object(
               'offset_reset', i.offset_reset,
               'key_sha256', encode(i.record_key_sha256, 'hex'),
               'idempotency_key_sha256', encode(i.idempotency_key_sha256, 'hex'))) || jsonb_build_object(
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
