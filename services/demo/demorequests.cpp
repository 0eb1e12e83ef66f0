#include "demorequests.h"

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
#include <QThread>

using namespace Qt::StringLiterals;

namespace {
constexpr char16_t DlqTopic[] = u"orders-dlt";
constexpr int CompletedItems = 2;
constexpr int PendingItems = 3;
constexpr char16_t Projection[] = u"order-projection";

// A dead letter of order-projection whose inbox row is parked (an event type it does not handle), after
// the ones the requests already name: the pending request releases and replays it. Invalid when none
// appears in time.
DlqSelection findParked(TopicRangeReader &reader, PgSession &db, const InboxMappingSet &mappings,
                        const QList<DlqSelection> &taken, const std::function<bool()> &stopping,
                        qint64 deadline)
{
    const InboxMapping *mapping = mappings.find(QString::fromUtf16(Projection));
    const QString topic = QString::fromUtf16(DlqTopic);
    QString error;
    while (mapping && !stopping() && QDateTime::currentMSecsSinceEpoch() < deadline) {
        QHash<QString, DlqSelection> byKey;
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
                const DlqSelection at{topic, record.partition, record.offset};
                const QString key = QString::fromUtf8(record.header("idempotency-key"));
                const bool isTaken = std::any_of(taken.cbegin(), taken.cend(), [&](const DlqSelection &t) {
                    return t.partition == at.partition && t.offset == at.offset;
                });
                if (!key.isEmpty() && !isTaken && !byKey.contains(key))
                    byKey.insert(key, at);
                return true;
            },
            5000, &error);
        const InboxKeyStates states = InboxKeyLookup::lookup(db, {*mapping}, byKey.keys(), &error);
        for (auto it = states.cbegin(); it != states.cend(); ++it) {
            if (it->state == InboxState::Parked)
                return byKey.value(it.key());
        }
        QThread::msleep(1000);
    }
    return {};
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

void DemoRequests::stop()
{
    m_stop = true;
    m_control->cancel();
    if (m_thread.joinable())
        m_thread.join();
}

void DemoRequests::run()
{
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

    // The first dead letters, oldest first per partition: enough for both requests.
    const QString topic = QString::fromUtf16(DlqTopic);
    QList<DlqSelection> records;
    const std::unique_ptr<TopicRangeReader> reader = TopicRangeReader::create(m_settings.cluster, &error);
    const qint64 deadline = QDateTime::currentMSecsSinceEpoch() + m_settings.waitForDeadLettersMs;
    while (reader && !stopping() && QDateTime::currentMSecsSinceEpoch() < deadline) {
        records.clear();
        const int partitions = reader->partitionCount(topic, 5000, &error);
        for (int p = 0; p < partitions; ++p) {
            qint64 low = 0;
            qint64 high = 0;
            if (!reader->watermarks(topic, p, &low, &high, 5000, &error))
                continue;
            for (qint64 o = low; o < high && records.size() < CompletedItems + PendingItems; ++o)
                records.append({topic, p, o});
        }
        if (records.size() >= CompletedItems + PendingItems)
            break;
        QThread::msleep(500);
    }
    if (stopping() || records.size() < CompletedItems + PendingItems)
        return;

    RequestBuilderContext context;
    context.cluster = m_settings.cluster;
    context.inboxDb = &bob;
    context.policy = loadPolicyFile(m_settings.policyPath).policy;
    // The demo policy declares the mappings; those without a database live in bob's (the default).
    context.inboxMappings = InboxMappingSet::resolve(context.policy.inboxMappings(), {}, QString());
    context.cancelled = [this] { return stopping(); };

    // Yesterday's incident, done: filed by bob, approved by alice, executed by bob.
    RequestDraft done;
    done.selection = records.mid(0, CompletedItems);
    done.reasonCode = u"downstream-recovered"_s;
    done.reason =
        u"The projection database was failing over; these orders are valid and were never applied."_s;
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

    // Today's: waiting for a second pair of eyes. It releases and replays a parked row too, when one
    // appears in time: its consumer would skip that record otherwise.
    RequestDraft pending;
    pending.selection = records.mid(CompletedItems, PendingItems);
    const DlqSelection parked = findParked(
        *reader, bob, context.inboxMappings, records, [this] { return stopping(); },
        QDateTime::currentMSecsSinceEpoch() + 60'000);
    if (parked.offset >= 0) {
        pending.selection.append(parked);
        pending.release = true;
    }
    pending.reasonCode = u"poison-fixed"_s;
    pending.reason = u"order-projection 2.4.1 reads the new currency field; replay the orders it rejected."_s;
    pending.ticket = u"OPS-1042"_s;
    pending.rateLimit = 100;
    const BuiltRequest pendingBuilt = RequestBuilder::build(pending, context);
    if (RequestBuilder::submit(bobStore, pendingBuilt, &error) == 0)
        qCWarning(lcDemo).noquote() << "demo requests:" << error;
}
