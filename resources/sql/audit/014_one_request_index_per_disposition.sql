-- Berth audit database, version 14: a disposition row is indexed once by its request's item.
--
-- Since version 11 a delivery is a `replayed` disposition, and every one of them is in the unique index
-- dispositions_delivered_once (request_id, item_no WHERE disposition = 'replayed'), which the intent states,
-- the completion check and the UPDATE check of intents read. The index dispositions_request (request_id,
-- item_no) held the same rows a second time, one more index insert per delivery, the commonest row of the
-- table. It now holds only the other dispositions (skipped, deleted), so each row is in exactly one of the
-- two indexes by request, and a look-up by request reads both (IntentJournal::disposed). Nothing else
-- changes: the rules, the checks and the audit events are version 13's.

DROP INDEX berth.dispositions_request;
CREATE INDEX dispositions_request_not_replayed ON berth.dispositions (request_id, item_no)
    WHERE disposition <> 'replayed';
