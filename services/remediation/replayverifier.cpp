#include "replayverifier.h"

#include "services/audit/auditstore.h"
#include "services/inbox/inboxkeylookup.h"
#include "services/inbox/inboxsessions.h"
#include "services/inbox/pgsession.h"
#include "services/kafka/clusterinspector.h"
#include "services/payload/keymask.h"
#include "services/payload/payloadmask.h"
#include "services/remediation/dryrun.h"
#include "services/remediation/intentjournal.h"
#include "services/remediation/remediationtypes.h"
#include "services/remediation/requestitemdigests.h"
#include "services/remediation/sourcecursor.h"
#include "services/remediation/topicrangereader.h"

#include <QElapsedTimer>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>

#include <algorithm>
#include <thread>

using namespace Qt::StringLiterals;

QString verifyOutcomeName(VerifyOutcome outcome)
{
    switch (outcome) {
    case VerifyOutcome::Pending:
        return u"pending"_s;
    case VerifyOutcome::NotDelivered:
        return u"not_delivered"_s;
    case VerifyOutcome::Processed:
        return u"processed"_s;
    case VerifyOutcome::NoOp:
        return u"no_op"_s;
    case VerifyOutcome::Failed:
        return u"failed"_s;
    case VerifyOutcome::Parked:
        return u"parked"_s;
    case VerifyOutcome::ReturnedToDlq:
        return u"returned_to_dlq"_s;
    case VerifyOutcome::Consumed:
        return u"consumed"_s;
    case VerifyOutcome::NoInboxRow:
        return u"no_inbox_row"_s;
    }
    return {};
}

bool isVerifyFailure(VerifyOutcome outcome)
{
    switch (outcome) {
    case VerifyOutcome::NotDelivered:
    case VerifyOutcome::Failed:
    case VerifyOutcome::Parked:
    case VerifyOutcome::ReturnedToDlq:
    case VerifyOutcome::NoInboxRow:
        return true;
    default:
        return false;
    }
}

QString verificationResultName(VerificationResult result)
{
    switch (result) {
    case VerificationResult::Verified:
        return u"verified"_s;
    case VerificationResult::VerifiedWithFailures:
        return u"verified_with_failures"_s;
    case VerificationResult::Unverified:
        return u"unverified"_s;
    }
    return {};
}

int ReplayVerification::failures() const
{
    int n = 0;
    for (int o = 0; o < VerifyOutcomeCount; ++o) {
        if (isVerifyFailure(VerifyOutcome(o)))
            n += counts[size_t(o)];
    }
    return n;
}

namespace {
constexpr int ListedInEvent = 50;
// Every item's outcome, in item order, as runs of [outcome, first item, count]: a few runs for a typical
// verification, bounded for one whose outcomes alternate (the event then says it lists the first ones).
constexpr int OutcomeRunsInEvent = 20'000;

QJsonObject countsJson(const ReplayVerification &v)
{
    QJsonObject counts;
    for (int o = 0; o < VerifyOutcomeCount; ++o)
        counts.insert(verifyOutcomeName(VerifyOutcome(o)), v.counts[size_t(o)]);
    return counts;
}

QJsonObject itemJson(const VerifiedItem &item)
{
    return {{u"item"_s, item.itemNo},
            {u"replayId"_s, item.replayId},
            {u"outcome"_s, verifyOutcomeName(item.outcome)},
            {u"destination"_s, item.destTopic.isEmpty()
                                   ? QString()
                                   : item.destTopic + u'/' + QString::number(item.destPartition) + u'/'
                                         + QString::number(item.destOffset)},
            {u"detail"_s, item.detail}};
}

// Unresolved items first (pending, then failures), then the rest, each in item order; at most `max`.
QJsonArray listedItems(const ReplayVerification &v, int max)
{
    QJsonArray out;
    const auto add = [&](auto &&take) {
        for (const VerifiedItem &item : v.items) {
            if (out.size() >= max)
                return;
            if (take(item))
                out.append(itemJson(item));
        }
    };
    add([](const VerifiedItem &i) { return i.outcome == VerifyOutcome::Pending; });
    add([](const VerifiedItem &i) { return isVerifyFailure(i.outcome); });
    add([](const VerifiedItem &i) {
        return i.outcome != VerifyOutcome::Pending && !isVerifyFailure(i.outcome);
    });
    return out;
}
} // namespace

QJsonObject ReplayVerification::toJson(int maxListed) const
{
    if (isOffsetReset()) {
        // The offsets.verified event's own shape (group, topic, partitions, verified), with the result and
        // where it was recorded.
        QJsonObject json{{u"requestId"_s, requestId},
                         {u"result"_s, verificationResultName(result)},
                         {u"group"_s, consumer},
                         {u"topic"_s, resetTopic},
                         {u"partitions"_s, OffsetResetExecutor::partitionsJson(resetPartitions, true)},
                         {u"verified"_s, result == VerificationResult::Verified}};
        if (recordedAt.isValid())
            json.insert(u"recordedAt"_s, recordedAt.toString(Qt::ISODateWithMs));
        if (eventSeq > 0)
            json.insert(u"auditSeq"_s, eventSeq);
        return json;
    }
    QJsonObject json = eventDetails();
    json.insert(u"elapsedMs"_s, elapsedMs);
    json.insert(u"items"_s, listedItems(*this, maxListed));
    json.insert(u"itemsListed"_s, std::min<qsizetype>(maxListed, items.size()));
    if (!error.isEmpty())
        json.insert(u"error"_s, error);
    if (eventSeq > 0)
        json.insert(u"auditSeq"_s, eventSeq);
    return json;
}

QJsonObject ReplayVerification::eventDetails() const
{
    QJsonArray pending;
    QJsonArray failed;
    for (const VerifiedItem &item : items) {
        if (item.outcome == VerifyOutcome::Pending && pending.size() < ListedInEvent)
            pending.append(item.replayId);
        else if (isVerifyFailure(item.outcome) && failed.size() < ListedInEvent)
            failed.append(QJsonObject{{u"replayId"_s, item.replayId},
                                      {u"outcome"_s, verifyOutcomeName(item.outcome)},
                                      {u"detail"_s, item.detail}});
    }
    QJsonArray runs;
    bool runsCut = false;
    for (qsizetype i = 0; i < items.size();) {
        qsizetype end = i + 1;
        while (end < items.size() && items.at(end).outcome == items.at(i).outcome
               && items.at(end).itemNo == items.at(end - 1).itemNo + 1)
            ++end;
        if (runs.size() == OutcomeRunsInEvent) {
            runsCut = true;
            break;
        }
        runs.append(QJsonArray{verifyOutcomeName(items.at(i).outcome), items.at(i).itemNo, int(end - i)});
        i = end;
    }
    return {{u"requestId"_s, requestId},
            {u"result"_s, verificationResultName(result)},
            {u"outcomes"_s, runs},
            {u"outcomesCut"_s, runsCut},
            {u"consumer"_s, consumer},
            {u"alsoReceives"_s, QJsonArray::fromStringList(alsoReceives)},
            {u"inboxTable"_s, inboxTable},
            {u"dlqTopics"_s, QJsonArray::fromStringList(dlqTopics)},
            {u"total"_s, int(items.size())},
            {u"counts"_s, countsJson(*this)},
            {u"predictedNoOpRate"_s, predicted ? QJsonValue(predictedNoOpRate) : QJsonValue()},
            {u"observedNoOpRate"_s, observedNoOpRate},
            {u"pending"_s, pending},
            {u"failures"_s, failed},
            {u"notes"_s, QJsonArray::fromStringList(notes)}};
}

ReplayVerification ReplayVerification::fromEventDetails(const QJsonObject &details)
{
    ReplayVerification v;
    v.requestId = details.value(u"requestId"_s).toInteger();
    const QString result = details.value(u"result"_s).toString();
    v.result = result == verificationResultName(VerificationResult::Verified) ? VerificationResult::Verified
               : result == verificationResultName(VerificationResult::VerifiedWithFailures)
                   ? VerificationResult::VerifiedWithFailures
                   : VerificationResult::Unverified;
    v.consumer = details.value(u"consumer"_s).toString();
    for (const QJsonValue &c : details.value(u"alsoReceives"_s).toArray())
        v.alsoReceives << c.toString();
    v.inboxTable = details.value(u"inboxTable"_s).toString();
    for (const QJsonValue &t : details.value(u"dlqTopics"_s).toArray())
        v.dlqTopics << t.toString();
    const QJsonObject counts = details.value(u"counts"_s).toObject();
    const auto outcomeOf = [](const QString &name) {
        for (int o = 0; o < VerifyOutcomeCount; ++o) {
            if (verifyOutcomeName(VerifyOutcome(o)) == name)
                return VerifyOutcome(o);
        }
        return VerifyOutcome::Pending;
    };
    for (int o = 0; o < VerifyOutcomeCount; ++o)
        v.counts[size_t(o)] = counts.value(verifyOutcomeName(VerifyOutcome(o))).toInt();
    const QJsonValue predicted = details.value(u"predictedNoOpRate"_s);
    v.predicted = predicted.isDouble();
    v.predictedNoOpRate = predicted.toDouble();
    v.observedNoOpRate = details.value(u"observedNoOpRate"_s).toDouble();
    const auto item = [](const QString &replayId, VerifyOutcome outcome, const QString &detail) {
        VerifiedItem i;
        qint64 request = 0;
        parseReplayId(replayId.toUtf8(), &request, &i.itemNo);
        i.replayId = replayId;
        i.outcome = outcome;
        i.detail = detail;
        return i;
    };
    QHash<QString, QString> failureDetails; // replay id -> detail
    for (const QJsonValue &f : details.value(u"failures"_s).toArray()) {
        const QJsonObject o = f.toObject();
        failureDetails.insert(o.value(u"replayId"_s).toString(), o.value(u"detail"_s).toString());
    }
    const QJsonArray runs = details.value(u"outcomes"_s).toArray();
    if (!runs.isEmpty()) {
        // Every item's outcome (events written since the runs were recorded).
        const QString prefix = QString::number(v.requestId) + u'-';
        for (const QJsonValue &r : runs) {
            const QJsonArray run = r.toArray();
            const VerifyOutcome outcome = outcomeOf(run.at(0).toString());
            const int first = run.at(1).toInt();
            const int count = std::min(run.at(2).toInt(), VerifyOutcomeListLimit);
            for (int n = first; n < first + count && v.items.size() < VerifyOutcomeListLimit; ++n) {
                const QString replayId = prefix + QString::number(n);
                v.items.append(item(replayId, outcome, failureDetails.value(replayId)));
            }
        }
    } else {
        // An older event: only the pending and failed items it lists.
        for (const QJsonValue &p : details.value(u"pending"_s).toArray())
            v.items.append(item(p.toString(), VerifyOutcome::Pending, {}));
        for (const QJsonValue &f : details.value(u"failures"_s).toArray()) {
            const QJsonObject o = f.toObject();
            v.items.append(item(o.value(u"replayId"_s).toString(), outcomeOf(o.value(u"outcome"_s).toString()),
                                o.value(u"detail"_s).toString()));
        }
    }
    for (const QJsonValue &n : details.value(u"notes"_s).toArray())
        v.notes << n.toString();
    return v;
}

ReplayVerification ReplayVerification::fromResetEventDetails(const QJsonObject &details)
{
    ReplayVerification v;
    v.requestId = details.value(u"requestId"_s).toInteger();
    v.consumer = details.value(u"group"_s).toString();
    v.resetTopic = details.value(u"topic"_s).toString();
    v.resetPartitions = OffsetResetExecutor::partitionsFromJson(details.value(u"partitions"_s).toArray());
    const bool verified = details.value(u"verified"_s).toBool()
                          && std::all_of(v.resetPartitions.cbegin(), v.resetPartitions.cend(),
                                         [](const OffsetResetPartitionOutcome &p) { return p.verified(); });
    v.result = verified ? VerificationResult::Verified : VerificationResult::VerifiedWithFailures;
    return v;
}

std::optional<ReplayVerification> ReplayVerification::lastRecorded(PgSession &auditDb, qint64 requestId,
                                                                   QString *error)
{
    const PgResult r =
        auditDb.exec(u"SELECT seq, (extract(epoch FROM at) * 1000)::bigint, details::text, action "
                     u"FROM berth.audit_events "
                     u"WHERE request_id = $1 AND action IN ('replay.verified', 'offsets.verified') "
                     u"ORDER BY seq DESC LIMIT 1"_s,
                     {requestId});
    error->clear();
    if (!r.ok) {
        *error = r.error;
        return std::nullopt;
    }
    if (r.rows.isEmpty())
        return std::nullopt;
    const QJsonObject details = QJsonDocument::fromJson(r.rows.first().at(2).toString().toUtf8()).object();
    ReplayVerification v = r.rows.first().at(3).toString() == u"offsets.verified"_s
                               ? fromResetEventDetails(details)
                               : fromEventDetails(details);
    v.requestId = requestId;
    v.eventSeq = r.rows.first().at(0).toLongLong();
    v.recordedAt = QDateTime::fromMSecsSinceEpoch(r.rows.first().at(1).toLongLong(), Qt::UTC);
    return v;
}

QString ReplayVerification::summary() const
{
    if (!error.isEmpty())
        return u"Request "_s + QString::number(requestId) + u": not verified: "_s + error + u'\n';
    if (isOffsetReset()) {
        QString s =
            u"Request "_s + QString::number(requestId) + u": offset reset of group "_s + consumer + u" on "_s
            + resetTopic + u' ' + verificationResultName(result) + u" from the committed offsets read back"_s
            + (recordedAt.isValid() ? u" at "_s + recordedAt.toString(Qt::ISODateWithMs) : QString()) + u'\n';
        for (const OffsetResetPartitionOutcome &p : resetPartitions)
            s += u"  "_s + OffsetResetExecutor::partitionText(p) + u'\n';
        return s;
    }
    QString s = u"Request "_s + QString::number(requestId) + u": "_s + verificationResultName(result)
                + u" for consumer "_s + consumer;
    if (!alsoReceives.isEmpty())
        s += u" (also receives: "_s + alsoReceives.join(u", "_s) + u')';
    s += u'\n';
    QStringList parts;
    for (int o = 0; o < VerifyOutcomeCount; ++o) {
        if (counts[size_t(o)] > 0)
            parts << verifyOutcomeName(VerifyOutcome(o)) + u' ' + QString::number(counts[size_t(o)]);
    }
    s += u"  "_s + QString::number(items.size()) + u" item(s): "_s + parts.join(u", "_s) + u'\n';
    s += u"  no-op rate: observed "_s + QString::number(observedNoOpRate * 100.0, 'f', 1) + u"%, predicted "_s
         + (predicted ? QString(QString::number(predictedNoOpRate * 100.0, 'f', 1) + u'%') : u"unknown"_s)
         + u'\n';
    int listed = 0;
    for (const VerifiedItem &item : items) {
        if ((item.outcome == VerifyOutcome::Pending || isVerifyFailure(item.outcome)) && listed++ < 20)
            s += u"  "_s + item.replayId + u' ' + verifyOutcomeName(item.outcome)
                 + (item.detail.isEmpty() ? QString() : u": "_s + item.detail) + u'\n';
    }
    for (const QString &note : notes)
        s += u"  note: "_s + note + u'\n';
    if (result == VerificationResult::Unverified)
        s += u"  still pending when the wait ended: run `berth replay verify "_s + QString::number(requestId)
             + u"` again later\n"_s;
    return s;
}

ReplayVerifier::ReplayVerifier(PgSession &auditDb, KafkaProperties cluster, PgSession *inboxDb)
    : m_audit(auditDb)
    , m_cluster(std::move(cluster))
    , m_inbox(inboxDb)
{
    qRegisterMetaType<ReplayVerification>();
}

namespace {
// Decides an item behind the committed offset from its inbox row (ARCHITECTURE.md, Data flows:
// Remediation). A row last written before the replay started was not touched by it: a no-op.
void classifyRow(VerifiedItem &item, const InboxKeyState *row, qint64 runStartMs)
{
    if (!row) {
        item.outcome = VerifyOutcome::NoInboxRow;
        item.detail = u"behind the committed offset, no inbox row for "_s + item.idempotencyKey;
        return;
    }
    const bool touched = row->updatedMs < 0 || row->updatedMs >= runStartMs;
    item.detail = u"inbox status "_s + row->status;
    switch (row->state) {
    case InboxState::Completed:
        item.outcome = touched ? VerifyOutcome::Processed : VerifyOutcome::NoOp;
        if (!touched)
            item.detail += u" (already, before the replay)"_s;
        return;
    case InboxState::Skipped:
        item.outcome = VerifyOutcome::NoOp;
        return;
    case InboxState::Parked:
        item.outcome = touched ? VerifyOutcome::Parked : VerifyOutcome::NoOp;
        if (!touched)
            item.detail += u" (unchanged: the consumer skipped it)"_s;
        return;
    case InboxState::FailedTerminal:
        item.outcome = touched ? VerifyOutcome::Failed : VerifyOutcome::NoOp;
        if (!touched)
            item.detail += u" (unchanged: the consumer skipped it)"_s;
        return;
    case InboxState::FailedRetryable:
    case InboxState::Unknown:
        item.outcome = VerifyOutcome::Failed;
        return;
    case InboxState::InProgress:
        item.outcome = VerifyOutcome::Pending;
        item.detail += u" (in progress)"_s;
        return;
    }
}
} // namespace

ReplayVerification ReplayVerifier::verify(qint64 requestId, const VerifyOptions &options,
                                          const PassFn &onPass)
{
    QElapsedTimer clock;
    clock.start();
    ReplayVerification v;
    v.requestId = requestId;
    AuditStore store(m_audit);
    QString error;
    const std::optional<RequestDetail> detail = store.requestDetail(requestId, &error, 0);
    if (!detail) {
        v.error = error.isEmpty() ? u"there is no request "_s + QString::number(requestId) : error;
        return v;
    }
    const RemediationRequest &request = detail->request;
    if (request.action != RemediationAction::Replay && request.action != RemediationAction::EditReplay) {
        v.error =
            u"only replays are verified (this request is "_s + AuditText::actionName(request.action) + u')';
        return v;
    }
    const DryRunResult dry = DryRunResult::fromJson(request.dryRun);
    v.predicted = dry.inboxChecked;
    v.predictedNoOpRate = dry.predictedNoOpRate;

    // Items and what the executor journaled for them.
    QList<RequestItem> items;
    for (int after = 0;;) {
        const QList<RequestItem> page = store.items(requestId, after, 5000, &error);
        if (!error.isEmpty()) {
            v.error = error;
            return v;
        }
        items += page;
        if (page.size() < 5000)
            break;
        after = page.last().itemNo;
    }
    QHash<int, IntentJournal::Intent> intents;
    if (!IntentJournal(m_audit, requestId).load(&intents, &error)) {
        v.error = error;
        return v;
    }

    // When the replay began: the first destination mark, written before anything was produced.
    EventFilter marks;
    marks.requestId = requestId;
    marks.actions = {u"replay.destination_marked"_s};
    marks.limit = 1;
    const QList<AuditEvent> firstMark = store.listEvents(marks, &error);
    if (!error.isEmpty()) {
        v.error = error;
        return v;
    }
    if (firstMark.isEmpty()) {
        v.error = u"request "_s + QString::number(requestId) + u" has not been executed"_s;
        return v;
    }
    const qint64 runStartMs = firstMark.first().at.toMSecsSinceEpoch();

    // The target consumer: named, else the dry run's, else the policy's owner of the items' DLQ.
    v.consumer = options.consumer.isEmpty() ? dry.targetConsumer : options.consumer;
    if (v.consumer.isEmpty()) {
        QHash<QString, int> votes;
        for (const RequestItem &item : std::as_const(items)) {
            const QString c = options.policy.consumerOfDeadLetter(item.sourceTopic, {});
            if (!c.isEmpty())
                ++votes[c];
        }
        for (auto it = votes.cbegin(); it != votes.cend(); ++it) {
            if (it.value() > votes.value(v.consumer, 0))
                v.consumer = it.key();
        }
    }
    if (v.consumer.isEmpty()) {
        v.error = u"the request names no target consumer and the policy does not tell whose DLQ its items "
                  u"came from: give --consumer (or --policy)"_s;
        return v;
    }
    v.alsoReceives = dry.alsoReceives;
    v.alsoReceives.removeAll(v.consumer);
    const InboxMapping *mapping = options.inboxMappings.find(v.consumer);
    if (mapping)
        v.inboxTable = mapping->qualifiedTable();
    QSet<QString> dlqTopics;
    if (const ConsumerPolicy *c = options.policy.consumer(v.consumer); c && !c->dlqTopic.isEmpty()) {
        dlqTopics.insert(c->dlqTopic);
    } else {
        for (const RequestItem &item : std::as_const(items)) {
            if (!item.sourceTopic.isEmpty())
                dlqTopics.insert(item.sourceTopic);
        }
    }
    v.dlqTopics = QStringList(dlqTopics.cbegin(), dlqTopics.cend());
    v.dlqTopics.sort();

    // Every item starts pending when delivered, and not delivered otherwise.
    QList<TopicPartition> partitions;
    QSet<TopicPartition> partitionSet;
    QList<int> open; // indexes into v.items still pending
    v.items.reserve(items.size());
    QHash<int, QString> lookupKeys; // index into v.items -> the idempotency key the inbox is asked for
    const KeyMask mask(options.policy);
    for (const RequestItem &item : std::as_const(items)) {
        VerifiedItem out;
        out.itemNo = item.itemNo;
        out.replayId = replayIdFor(requestId, item.itemNo);
        out.idempotencyKey = item.idempotencyKey;
        // A request filed before masked keys were pinned by digest stores a key the policy masks now: the
        // inbox is asked for it, and the verification (its items, details and event) shows it masked.
        if (item.idempotencyKeySha256.isEmpty() && !item.idempotencyKey.isEmpty() && item.isDlqRecord()) {
            const KeyMask::Keys shown = mask.shown(item.sourceTopic, {}, item.key, item.idempotencyKey);
            if (shown.idempotencyKeyMasked) {
                lookupKeys.insert(int(v.items.size()), item.idempotencyKey);
                out.idempotencyKey = shown.idempotencyKey;
            }
        }
        const auto intent = intents.constFind(item.itemNo);
        if (intent == intents.cend() || intent->state != IntentJournal::State::Delivered) {
            out.outcome = VerifyOutcome::NotDelivered;
            out.detail = intent == intents.cend()
                             ? u"never produced"_s
                             : IntentJournal::stateName(intent->state)
                                   + (intent->error.isEmpty() ? QString() : u": "_s + intent->error);
        } else {
            out.destTopic = intent->destTopic;
            out.destPartition = intent->destPartition;
            out.destOffset = intent->destOffset;
            const TopicPartition tp{out.destTopic, out.destPartition};
            if (!partitionSet.contains(tp)) {
                partitionSet.insert(tp);
                partitions.append(tp);
            }
            open.append(int(v.items.size()));
        }
        v.items.append(out);
    }
    std::unique_ptr<ClusterInspector> inspector = ClusterInspector::create(m_cluster, &error);
    std::unique_ptr<TopicRangeReader> reader =
        inspector ? TopicRangeReader::create(m_cluster, &error) : nullptr;
    if (!inspector || !reader) {
        v.error = error;
        return v;
    }
    // Items whose idempotency key is masked are stored with its digest alone: the key is read again from
    // the source record (kept only when its digest matches) for the inbox look-ups, and shown masked.
    {
        QList<SourceCursor::Position> positions;
        QList<int> sealed;
        for (int index : std::as_const(open)) {
            const RequestItem &item = items.at(index);
            if (item.idempotencyKeySha256.isEmpty())
                continue;
            v.items[index].idempotencyKey = QString::fromLatin1(PayloadMask::kMasked);
            positions.append({item.sourceTopic, item.sourcePartition, item.sourceOffset});
            sealed.append(index);
        }
        std::unique_ptr<SourceCursor> source =
            positions.isEmpty() ? nullptr : SourceCursor::create(m_cluster, &error);
        if (!positions.isEmpty() && !source) {
            v.notes << u"the source records of masked idempotency keys could not be read: "_s + error;
            error.clear();
        }
        QHash<int, QString> problems;
        const QHash<int, KafkaRecord> records =
            source ? source->fetch(positions, 15'000, &problems) : QHash<int, KafkaRecord>();
        const ConsumerPolicy *consumer = options.policy.consumer(v.consumer);
        const RecordField field = consumer ? consumer->idempotencyKey : RecordField();
        for (int i = 0; i < sealed.size(); ++i) {
            const auto record = records.constFind(i);
            lookupKeys.insert(sealed.at(i), record == records.cend()
                                                ? QString()
                                                : RequestItemDigests::idempotencyKeyOf(items.at(sealed.at(i)),
                                                                                       *record, field));
        }
    }
    const auto lookupKeyOf = [&](int index) {
        return lookupKeys.value(index, v.items.at(index).idempotencyKey);
    };
    // Where each DLQ partition is read from: where it ended when the first run began (the executor's
    // replay.dlq_marked), else a while before the run began, found by timestamps (returns come after).
    QHash<TopicPartition, qint64> dlqNext;
    EventFilter dlqMarks;
    dlqMarks.requestId = requestId;
    dlqMarks.actions = {u"replay.dlq_marked"_s};
    dlqMarks.limit = 100;
    const QList<AuditEvent> dlqMarked = store.listEvents(dlqMarks, &error);
    error.clear();
    QSet<QString> markedTopics;
    for (const AuditEvent &e : dlqMarked) {
        const QJsonObject ends = e.details.value(u"ends"_s).toObject();
        for (auto t = ends.begin(); t != ends.end(); ++t) {
            if (!v.dlqTopics.contains(t.key()))
                continue;
            markedTopics.insert(t.key());
            const QJsonObject partitions = t.value().toObject();
            for (auto p = partitions.begin(); p != partitions.end(); ++p) {
                const TopicPartition tp{t.key(), p.key().toInt()};
                const qint64 end = p.value().toInteger();
                if (!dlqNext.contains(tp) || dlqNext.value(tp) > end)
                    dlqNext.insert(tp, end);
            }
        }
    }
    for (const QString &topic : std::as_const(v.dlqTopics)) {
        if (markedTopics.contains(topic))
            continue;
        const int count = reader->partitionCount(topic, 10'000, &error);
        if (count <= 0) {
            v.notes << u"DLQ "_s + topic + u" not read: "_s + error;
            error.clear();
            continue;
        }
        for (int p = 0; p < count; ++p) {
            qint64 from = 0;
            if (!reader->offsetForTime(topic, p, runStartMs - options.dlqLookBackMs, &from, 10'000, &error)) {
                v.notes << error;
                error.clear();
                continue;
            }
            dlqNext.insert({topic, p}, from);
        }
    }

    InboxSessions sessions(options.inboxMappings, m_inbox);
    QElapsedTimer waited;
    waited.start();
    QHash<int, QString> returned; // item no -> where it came back
    const auto cancelled = [&] { return options.cancelled && options.cancelled(); };
    bool stopped = false;
    for (int pass = 0;; ++pass) {
        QStringList passNotes;
        // The group's committed offsets on the destination partitions, read before the DLQ: a consumer
        // dead-letters a record before it commits past it, so a return is in the DLQ read that follows.
        PartitionOffsets committed;
        if (!open.isEmpty() && !cancelled()) {
            const QList<GroupOffsets> groups =
                inspector->committedOffsetsViaGroupHandles({v.consumer}, partitions, 10'000);
            if (!groups.isEmpty()) {
                committed = groups.first().committed;
                if (!groups.first().error.isEmpty())
                    passNotes << u"committed offsets of "_s + v.consumer + u": "_s + groups.first().error;
            }
        }

        // Returns to the DLQ, read on from where the last pass stopped.
        QList<TopicRangeReader::Range> ranges;
        for (auto it = dlqNext.begin(); it != dlqNext.end() && !cancelled(); ++it) {
            qint64 low = 0;
            qint64 high = 0;
            if (!reader->watermarks(it.key().topic, it.key().partition, &low, &high, 5000, &error)) {
                passNotes << error;
                error.clear();
                continue;
            }
            if (high > it.value())
                ranges.append({it.key().topic, it.key().partition, std::max(low, it.value()), high});
        }
        if (!ranges.isEmpty()) {
            const bool ok = reader->read(
                ranges,
                [&](const rd_kafka_message_t *m) {
                    const TopicPartition tp{QString::fromUtf8(rd_kafka_topic_name(m->rkt)),
                                            int(m->partition)};
                    dlqNext[tp] = m->offset + 1;
                    forEachHeader(m, [&](QByteArrayView name, const void *value, size_t size) {
                        if (!value || name != QByteArrayView(RemediationHeaders::ReplayId))
                            return;
                        qint64 request = 0;
                        int itemNo = 0;
                        if (parseReplayId(QByteArrayView(static_cast<const char *>(value), qsizetype(size)),
                                          &request, &itemNo)
                            && request == requestId)
                            returned.insert(itemNo, tp.topic + u'/' + QString::number(tp.partition) + u'/'
                                                        + QString::number(m->offset));
                    });
                    return true;
                },
                10'000, &error);
            if (!ok) {
                passNotes << u"DLQ: "_s + error;
                error.clear();
            } else {
                for (const TopicRangeReader::Range &r : std::as_const(ranges))
                    dlqNext[{r.topic, r.partition}] = std::max(dlqNext.value({r.topic, r.partition}), r.to);
            }
        }

        // Decide what can be decided; inbox look-ups for the rest, in one batch per pass.
        QList<int> lookUp;
        for (int index : std::as_const(open)) {
            VerifiedItem &item = v.items[index];
            if (const auto back = returned.constFind(item.itemNo); back != returned.cend()) {
                item.outcome = VerifyOutcome::ReturnedToDlq;
                item.detail = *back; // the dead letter's coordinates: the outcome already says where
                continue;
            }
            const qint64 position = committed.value({item.destTopic, item.destPartition}, -1);
            if (position <= item.destOffset) {
                item.outcome = VerifyOutcome::Pending;
                item.detail = position < 0 ? u"the group has no committed offset there"_s
                                           : u"committed offset "_s + QString::number(position);
                continue;
            }
            if (!mapping || lookupKeyOf(index).isEmpty()) {
                item.outcome = VerifyOutcome::Consumed;
                item.detail =
                    !mapping ? u"the consumer has no inbox mapping"_s
                    : lookupKeys.contains(index)
                        ? u"its masked idempotency key could not be read again from the source record: "
                          u"the inbox cannot be asked"_s
                        : u"no idempotency key: the inbox cannot be asked"_s;
                continue;
            }
            lookUp.append(index);
        }
        if (!lookUp.isEmpty()) {
            PgSession *session = sessions.sessionFor(*mapping, &error);
            QStringList keys;
            keys.reserve(lookUp.size());
            for (int index : std::as_const(lookUp))
                keys.append(lookupKeyOf(index));
            InboxKeyStates rows;
            if (session)
                rows = InboxKeyLookup::lookup(*session, {*mapping}, keys, &error);
            if (!error.isEmpty()) {
                passNotes << u"inbox "_s + mapping->qualifiedTable() + u": "_s + error;
                for (int index : std::as_const(lookUp)) {
                    v.items[index].outcome = VerifyOutcome::Pending;
                    v.items[index].detail = u"the inbox could not be read"_s;
                }
                if (session && !session->isOpen())
                    session->close();
                error.clear();
            } else {
                for (int index : std::as_const(lookUp)) {
                    VerifiedItem &item = v.items[index];
                    const auto row = rows.constFind(lookupKeyOf(index));
                    classifyRow(item, row == rows.cend() ? nullptr : &*row, runStartMs);
                }
            }
        }
        QList<int> still;
        for (int index : std::as_const(open)) {
            if (v.items.at(index).outcome == VerifyOutcome::Pending)
                still.append(index);
        }
        open = still;

        v.counts.fill(0);
        for (const VerifiedItem &item : std::as_const(v.items))
            ++v.counts[size_t(item.outcome)];
        v.notes = passNotes;
        v.observedNoOpRate =
            v.items.isEmpty() ? 0 : double(v.count(VerifyOutcome::NoOp)) / double(v.items.size());
        v.result = !open.isEmpty()    ? VerificationResult::Unverified
                   : v.failures() > 0 ? VerificationResult::VerifiedWithFailures
                                      : VerificationResult::Verified;
        v.elapsedMs = clock.elapsed();
        stopped = cancelled();
        const bool goOn = !stopped && (!onPass || onPass(v));
        if (open.isEmpty() || !goOn || waited.elapsed() >= options.timeoutMs)
            break;
        std::this_thread::sleep_for(std::chrono::milliseconds(
            std::clamp<qint64>(options.timeoutMs - waited.elapsed(), 0, options.pollMs)));
    }

    if (!stopped && options.recordEvent
        && (options.recordUnverified || v.result != VerificationResult::Unverified)) {
        v.eventSeq = store.appendEvent(u"replay.verified"_s, requestId, v.eventDetails(), &error);
        if (v.eventSeq == 0)
            v.notes << u"the verification could not be written to the audit log: "_s + error;
    }
    v.elapsedMs = clock.elapsed();
    return v;
}
