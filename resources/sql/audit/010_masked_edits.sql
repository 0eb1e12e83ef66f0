-- Berth audit database, version 10: an edit of masked fields needs the requester's recorded reveal.
--
-- Edit and replay may change a masked field (ARCHITECTURE.md, Masking) only when the requester saw it: the
-- request builder lists, per item, the masked field paths of a record edited as revealed (edited_masked:
-- paths, never values), and the database files such an item only when the same role (session_user) has a
-- 'record.reveal' event for that record's topic, partition and offset. A desk's word that the record "was
-- revealed" is not enough; the audit chain must hold the reveal.

ALTER TABLE berth.request_items ADD COLUMN edited_masked text[];

-- The reveals of one record, found without reading the whole log.
CREATE INDEX audit_events_reveals ON berth.audit_events ((details ->> 'topic'), (details ->> 'partition'),
                                                         (details ->> 'offset'), actor)
    WHERE action = 'record.reveal';

CREATE FUNCTION berth.request_items_reveal_check() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    bad record;
BEGIN
    FOR bad IN
        SELECT i.request_id, i.item_no, i.source_topic, i.source_partition, i.source_offset,
               array_to_string(i.edited_masked, ', ') AS fields,
               i.edited_payload IS NULL OR i.source_topic IS NULL AS not_an_edit,
               EXISTS (SELECT 1 FROM unnest(i.edited_masked) f WHERE f IS NULL OR left(f, 1) NOT IN ('$', 'h', 'k'))
                   AS not_paths
          FROM new_rows i
         WHERE cardinality(i.edited_masked) > 0
           AND (i.edited_payload IS NULL OR i.source_topic IS NULL
                OR EXISTS (SELECT 1 FROM unnest(i.edited_masked) f WHERE f IS NULL OR left(f, 1) NOT IN ('$', 'h', 'k'))
                OR NOT EXISTS (SELECT 1 FROM berth.audit_events e
                                WHERE e.action = 'record.reveal'
                                  AND e.details ->> 'topic' = i.source_topic
                                  AND e.details ->> 'partition' = i.source_partition::text
                                  AND e.details ->> 'offset' = i.source_offset::text
                                  AND e.actor = session_user))
         ORDER BY i.request_id, i.item_no
         LIMIT 1
    LOOP
        IF bad.not_an_edit THEN
            RAISE EXCEPTION 'request % item %: only an edited DLQ record lists edited masked fields',
                bad.request_id, bad.item_no USING ERRCODE = 'check_violation';
        END IF;
        IF bad.not_paths THEN
            RAISE EXCEPTION 'request % item %: edited masked fields are paths ($...), header:NAME or key',
                bad.request_id, bad.item_no USING ERRCODE = 'check_violation';
        END IF;
        RAISE EXCEPTION 'request % item % edits masked fields (%) of %/%/%, but % has recorded no reveal of that record',
            bad.request_id, bad.item_no, bad.fields, bad.source_topic, bad.source_partition, bad.source_offset,
            session_user
            USING ERRCODE = 'insufficient_privilege';
    END LOOP;
    RETURN NULL;
END
$$;

CREATE TRIGGER request_items_reveal_check AFTER INSERT ON berth.request_items
    REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION berth.request_items_reveal_check();
