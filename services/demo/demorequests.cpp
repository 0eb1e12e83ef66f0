#include "demorequests.h"

#include "demonap.h"
#include "services/audit/auditstore.h"
#include "services/inbox/inboxkeylookup.h"
#include "services/inbox/inboxmappingset.h"
#include "services/inbox/pgsession.h"
#include "services/policy/policyloader.h"
#include "services/remediation/replayexecutor.h"
#include "services/remediation/replayverifier.h"
#include "services/remediation/requestbuilder.h"
#include "services/remediation/topicrangereader.h"
#include "services/support/logging.h"

#include <QDateTime>
#include <QScopeGuard>
#include <QSet>

using namespace Qt::StringLiterals;

namespace {
constexpr char16_t DlqTopic[] = u"orders-dlt";
constexpr int CompletedItems = 2;
constexpr int ReplayableItems = 4;
constexpr char16_t Projection[] = u"order-projection";

// The dead letters of order-projection, oldest first per partition, one per key, no replay's return, in
// two lists: the ones its fixed version processes when replayed (its inbox keeps them FAILED_RETRYABLE,
// the database timeouts, which it takes again, or PARKED, the event type it had no handler for, released
// first), at most `count`; and the others (malformed, invalid, done), for the executed request. It waits
// until a parked row and `others` of the rest exist, and takes what there is when the deadline passes.
struct DeadLetterChoice {
    QList<DlqSelection> replayable;
    QList<DlqSelection> others;
};
DeadLetterChoice chooseDeadLetters(TopicRangeReader &reader, PgSession &db, const InboxMappingSet &mappings,
                                   int count, int others, const std::atomic_bool &stop, qint64 deadline)
{
    const InboxMapping *mapping = mappings.find(QString::fromUtf16(Projection));
    const QString topic = QString::fromUtf16(DlqTopic);
    QString error;
    DeadLetterChoice choice;
    while (mapping && !stop) {
        QList<QPair<QString, DlqSelection>> byKey; // in reading order
        QSet<QString> seen;
        const int partitions = reader.partitionCount(topic, 5000, &error);
        QList<TopicRangeReader::Range> ranges;
        for (int p = 0; p < partitions; ++p) {
            qint64 low = 0;
            qint64 high = 0;
            if (reader.watermarks(topic, p, &low, &high, 5000, &error))
                ranges.append({topic, p, low, std::min(high, low + 500)});
        }
        reader.read(
            ranges,
            [&](const rd_kafka_message_t *m) {
                const KafkaRecord record = KafkaRecord::fromMessage(m);
                const QString key = QString::fromUtf8(record.header("idempotency-key"));
                if (!key.isEmpty() && record.header(RemediationHeaders::ReplayId).isEmpty() && !seen.contains(key))
                    byKey.append({key, {topic, record.partition, record.offset}});
                if (!key.isEmpty())
                    seen.insert(key); // a later dead letter of a key already listed is not another item
                return true;
            },
            5000, &error);
        QStringList keys;
        for (const auto &entry : std::as_const(byKey))
            keys << entry.first;
        const InboxKeyStates states = InboxKeyLookup::lookup(db, {*mapping}, keys, &error);
        QList<DlqSelection> parked;
        QList<DlqSelection> retryable;
        choice.others.clear();
        for (const auto &[key, at] : std::as_const(byKey)) {
            const auto state = states.constFind(key);
            if (state != states.cend() && state->state == InboxState::Parked)
                parked.append(at);
            else if (state != states.cend() && state->state == InboxState::FailedRetryable)
                retryable.append(at);
            else if (choice.others.size() < others)
                choice.others.append(at);
        }
        // A parked row first (the release is what the newcomer should see), then alternately.
        choice.replayable.clear();
        for (int i = 0; choice.replayable.size() < count && (i < parked.size() || i < retryable.size()); ++i) {
            if (i < parked.size())
                choice.replayable.append(parked.at(i));
            if (i < retryable.size() && choice.replayable.size() < count)
                choice.replayable.append(retryable.at(i));
        }
        if ((!parked.isEmpty() && choice.others.size() >= others) || QDateTime::currentMSecsSinceEpoch() >= deadline)
            break;
        napUnlessStopped(stop, std::chrono::seconds(1));
    }
    return choice;
}
} // namespace

DemoRequests::DemoRequests(Settings settings)
    : m_settings(std::move(settings))
    , m_control(std::make_shared<ReplayControl>())
{
}

DemoRequests::~DemoRequests()
{
    stop();
}

void DemoRequests::start()
{
    if (!m_thread.joinable())
        m_thread = std::thread([this] { run(); });
}

void DemoRequests::requestStop()
{
    m_stop = true;
    m_control->cancel();
}

void DemoRequests::stop()
{
    requestStop();
    if (m_thread.joinable())
        m_thread.join();
}

void DemoRequests::run()
{
    // The warm-up ends whichever way the requests go: the world must not keep its incident because the
    // history was kept or a request could not be filed.
    bool warmUpEnded = false;
    const auto endWarmUp = [&] {
        if (!warmUpEnded && m_settings.endWarmUp)
            m_settings.endWarmUp();
        warmUpEnded = true;
    };
    const auto endAnyway = qScopeGuard([&] {
        if (!stopping())
            endWarmUp();
    });
    PgSession bob;
    PgSession alice;
    QString error;
    if (!bob.connect(m_settings.requesterConninfo, &error)
        || !alice.connect(m_settings.approverConninfo, &error)) {
        qCWarning(lcDemo).noquote() << "demo requests:" << error;
        return;
    }
    AuditStore bobStore(bob);
    RequestFilter any;
    any.limit = 1;
    // A kept data directory already has its history: the demo adds nothing to it.
    if (!bobStore.listRequests(any, &error).isEmpty() || !error.isEmpty())
        return;

    const std::unique_ptr<TopicRangeReader> reader = TopicRangeReader::create(m_settings.cluster, &error);
    if (!reader) {
        qCWarning(lcDemo).noquote() << "demo requests:" << error;
        return;
    }
    RequestBuilderContext context;
    context.cluster = m_settings.cluster;
    context.inboxDb = &bob;
    context.policy = loadPolicyFile(m_settings.policyPath).policy;
    // The demo policy declares the mappings; those without a database live in bob's (the default).
    context.inboxMappings = InboxMappingSet::resolve(context.policy.inboxMappings(), {}, QString());
    context.cancelled = [this] { return stopping(); };

    // Today's request names the dead letters the fix will let order-projection process, yesterday's the
    // first others; both chosen now, today's filed once the fix is deployed.
    const DeadLetterChoice chosen =
        chooseDeadLetters(*reader, bob, context.inboxMappings, ReplayableItems, CompletedItems, m_stop,
                          QDateTime::currentMSecsSinceEpoch() + m_settings.waitForDeadLettersMs);
    if (stopping() || chosen.others.isEmpty())
        return;

    // Yesterday's check, done: filed by bob, approved by alice, executed by bob.
    RequestDraft done;
    done.selection = chosen.others;
    done.reasonCode = u"other"_s;
    done.reason = u"Replayed to check whether order-projection takes these again: its inbox already holds each, "
                  u"so each is a no-op, as the dry run predicted."_s;
    done.ticket = u"OPS-1041"_s;
    done.rateLimit = 50;
    const BuiltRequest doneBuilt = RequestBuilder::build(done, context);
    const qint64 doneId = RequestBuilder::submit(bobStore, doneBuilt, &error);
    AuditStore aliceStore(alice);
    if (doneId == 0
        || !aliceStore.approve(doneId, u"Failover confirmed in the incident channel."_s, &error)) {
        qCWarning(lcDemo).noquote() << "demo requests:" << error;
        return;
    }
    ReplayOptions options;
    options.inboxMappings = context.inboxMappings;
    const ReplayOutcome outcome =
        ReplayExecutor(bob, m_settings.cluster, &bob).run(doneId, options, *m_control);
    if (!outcome.started || stopping())
        return;

    // Followed to its consumer, so the trail shows what the replay did there.
    VerifyOptions verifyOptions;
    verifyOptions.timeoutMs = 30'000;
    verifyOptions.policy = context.policy;
    verifyOptions.inboxMappings = context.inboxMappings;
    ReplayVerifier(bob, m_settings.cluster, &bob)
        .verify(doneId, verifyOptions, [this](const ReplayVerification &) { return !stopping(); });
    if (stopping())
        return;

    // Today's, after the fix (order-projection 2.4.1) is deployed: the dead letters the fix lets its
    // consumer process, waiting for a second pair of eyes. It releases the parked rows among them: their
    // consumer would skip those records otherwise.
    endWarmUp();
    RequestDraft pending;
    pending.selection = chosen.replayable;
    if (pending.selection.isEmpty())
        return;
    pending.release = true;
    pending.reasonCode = u"poison-fixed"_s;
    pending.reason = u"order-projection 2.4.1 handles OrderTeleported and the projection database is healthy "
                     u"again; release the parked rows and replay what it dead-lettered."_s;
    pending.ticket = u"OPS-1042"_s;
    pending.rateLimit = 100;
    const BuiltRequest pendingBuilt = RequestBuilder::build(pending, context);
    if (RequestBuilder::submit(bobStore, pendingBuilt, &error) == 0)
        qCWarning(lcDemo).noquote() << "demo requests:" << error;
}
