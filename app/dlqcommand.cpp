#include "dlqcommand.h"

#include "commandschemas.h"
#include "connectionoptions.h"

#include "services/dlq/dlqentryfields.h"
#include "services/dlq/dlqlookupkeys.h"
#include "services/dlq/dlqpayloadreader.h"
#include "services/dlq/dlqrecordformat.h"
#include "services/dlq/dlqscanrun.h"
#include "services/inbox/inboxkeylookup.h"
#include "services/inbox/inboxsessions.h"
#include "services/payload/fieldfilter.h"
#include "services/payload/schemacatalog.h"

#include <QCommandLineParser>
#include <QDateTime>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <atomic>
#include <csignal>

using namespace Qt::StringLiterals;

namespace {
std::atomic_bool g_interrupted = false;

void onScanInterrupt(int)
{
    g_interrupted = true; // the scan loop checks it between polls and ends cleanly
}

QJsonArray flagNames(const DlqEntryFields &e)
{
    const std::pair<bool, QLatin1StringView> names[] = {
        {e.hasDecodeNotes, "decodeNotes"_L1}, {e.keyIsNull, "nullKey"_L1},
        {e.valueIsNull, "nullValue"_L1},      {e.binaryKey, "binaryKey"_L1},
        {e.valueNotUtf8, "valueNotUtf8"_L1},  {e.hugeValue, "huge"_L1},
        {e.hasStackTrace, "stackTrace"_L1},   {e.keyFailure, "keyFailure"_L1},
    };
    QJsonArray out;
    for (const auto &[set, name] : names) {
        if (set)
            out.append(name);
    }
    return out;
}

QJsonObject entryToJson(const DlqEntryFields &e, quint32 groupId)
{
    QJsonObject o;
    o.insert(u"type"_s, u"entry"_s);
    o.insert(u"partition"_s, e.partition);
    o.insert(u"offset"_s, e.offset);
    o.insert(u"timestamp"_s, e.timestampMs);
    o.insert(u"key"_s, e.keyIsNull ? QJsonValue(QJsonValue::Null) : QJsonValue(e.key));
    o.insert(u"keySize"_s, e.keySize);
    o.insert(u"valueSize"_s, e.valueSize);
    o.insert(u"dialect"_s, dialectName(e.dialect));
    auto text = [&](const QString &name, const QString &value) {
        if (!value.isEmpty())
            o.insert(name, value);
    };
    text(u"originalTopic"_s, e.originalTopic);
    if (e.originalPartition >= 0)
        o.insert(u"originalPartition"_s, e.originalPartition);
    if (e.originalOffset >= 0)
        o.insert(u"originalOffset"_s, e.originalOffset);
    text(u"consumer"_s, e.consumer);
    text(u"exceptionClass"_s, e.exceptionClass);
    text(u"causeClass"_s, e.causeClass);
    text(u"reason"_s, e.reason);
    if (e.attempts >= 0)
        o.insert(u"attempts"_s, e.attempts);
    text(u"idempotencyKey"_s, e.idempotencyKey);
    o.insert(u"group"_s, qint64(groupId));
    const QJsonArray flags = flagNames(e);
    if (!flags.isEmpty())
        o.insert(u"flags"_s, flags);
    return o;
}

QJsonObject groupToJson(const FailureGroup &g)
{
    QJsonObject o;
    o.insert(u"type"_s, u"group"_s);
    o.insert(u"id"_s, qint64(g.id));
    o.insert(u"count"_s, g.count);
    o.insert(u"exceptionClass"_s, g.exceptionClass);
    o.insert(u"causeClass"_s, g.causeClass);
    o.insert(u"reasonPattern"_s, g.reasonPattern);
    o.insert(u"sampleReason"_s, g.sampleReason);
    o.insert(u"fingerprint"_s, g.fingerprint());
    o.insert(u"firstSeen"_s, g.firstSeenMs);
    o.insert(u"lastSeen"_s, g.lastSeenMs);
    o.insert(u"poisonMessages"_s, g.poisonMessages);
    QJsonObject perMinute;
    for (auto it = g.perMinute.cbegin(); it != g.perMinute.cend(); ++it)
        perMinute.insert(QDateTime::fromMSecsSinceEpoch(it.key() * 60000, Qt::UTC).toString(Qt::ISODate),
                         it.value());
    o.insert(u"perMinute"_s, perMinute);
    return o;
}

QByteArray line(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact) + '\n';
}

QString oneLine(QString s)
{
    for (QChar &c : s) {
        if (c.unicode() < 0x20)
            c = u' ';
    }
    return s;
}
} // namespace

namespace Commands {
int dlqScan(const QStringList &arguments)
{
    QStringList args = arguments;
    if (args.size() > 1 && args.at(1) == u"scan"_s)
        args.removeAt(1); // "berth dlq scan ..." reaches us as "berth scan ..." or as "berth ..."
    QCommandLineParser parser;
    parser.setApplicationDescription(u"Scans a dead-letter topic (without committing) and prints its index "
                                     u"entries and failure groups."_s);
    parser.addHelpOption();
    ConnectionOptions::add(parser);
    parser.addOption({u"topic"_s, u"The dead-letter topic."_s, u"name"_s});
    parser.addOption({u"from"_s,
                      u"Where to start: beginning, end, end-N (last N per partition), offset:N, "
                      u"time:<ISO-8601 or epoch ms>."_s,
                      u"position"_s, u"beginning"_s});
    parser.addOption({u"partition"_s,
                      u"Partitions to read: a number, a range such as 5-7, or several separated by commas "
                      u"(repeatable; default all)."_s,
                      u"list"_s});
    parser.addOption({u"live"_s, u"Keep reading new dead letters until interrupted."_s});
    parser.addOption({u"json"_s, u"One JSON object per line: entries, then groups, poison and a summary."_s});
    parser.addOption({u"timeout"_s, u"Per-request timeout in milliseconds."_s, u"ms"_s, u"10000"_s});
    parser.addOption({u"payloads"_s, u"Add each entry's decoded payload (\"payload\", \"schema\", \"payloadError\")."_s});
    CommandSchemas::addOptions(parser);
    parser.addOption({u"filter"_s,
                      u"Only dead letters whose decoded payload passes this field filter, e.g. "
                      u"'$.customer.id == \"c-42\" and $.amount > 10' (paths $.a.b[0].c; == != < <= > >= "
                      u"contains exists; and, or, parentheses)."_s,
                      u"expr"_s});
    parser.process(args);

    QFile err;
    err.open(stderr, QIODevice::WriteOnly | QIODevice::Unbuffered);
    QFile out;
    out.open(stdout, QIODevice::WriteOnly);
    QStringList secretIds;
    ConnectionProfile profile = ConnectionOptions::read(parser, &secretIds);
    QString secretsError;
    if (!ConnectionOptions::readSecrets(&profile, secretIds, &secretsError))
        err.write("berth dlq scan: " + secretsError.toUtf8() + '\n');
    DlqScanRequest request;
    request.cluster = profile.cluster;
    request.topic = parser.value(u"topic"_s);
    request.liveTail = parser.isSet(u"live"_s);
    request.requestTimeoutMs = parser.value(u"timeout"_s).toInt();
    QString error;
    if (KafkaConfig::bootstrapOf(request.cluster).isEmpty() || request.topic.isEmpty()) {
        err.write("berth dlq scan: give --bootstrap and --topic\n");
        return 2;
    }
    if (!request.parseStart(parser.value(u"from"_s), &error)) {
        err.write("berth dlq scan: " + error.toUtf8() + '\n');
        return 2;
    }
    if (!request.parsePartitions(parser.values(u"partition"_s).join(u','), &error)) {
        err.write("berth dlq scan: not a partition: " + error.toUtf8() + '\n');
        return 2;
    }

    DeliveryPolicy policy;
    InboxMappingSet inboxes;
    if (!ConnectionOptions::readPolicy(profile, &policy, &inboxes, &error)) {
        err.write("berth dlq scan: " + error.toUtf8() + '\n');
        return 2;
    }
    // Each dead letter's key in the inbox of the consumer it belongs to (its consumer header, else the
    // policy consumer whose DLQ topic this is).
    InboxSessions sessions(inboxes);
    // The key a dead letter is looked up by: its idempotency key, else its record key; where masking hid
    // them, the real ones the scan kept aside for the look-up (ARCHITECTURE.md, Masking: look-up keys), never
    // printed.
    std::shared_ptr<const DlqLookupKeys> lookupKeys;
    const auto inboxKey = [&](const DlqEntryFields &e) {
        const std::optional<DlqLookupKeys::Keys> hidden =
            lookupKeys ? lookupKeys->find(e.partition, e.offset) : std::nullopt;
        const QString idempotencyKey =
            hidden && hidden->idempotencyKey ? *hidden->idempotencyKey : e.idempotencyKey;
        if (!idempotencyKey.isEmpty())
            return idempotencyKey;
        return hidden && hidden->key ? QString::fromUtf8(*hidden->key) : e.key;
    };
    const auto inboxStates = [&](const QList<DlqEntryFields> &entries) {
        QHash<QString, QStringList> keysByMapping;
        for (const DlqEntryFields &e : entries) {
            const InboxMapping *m = inboxes.find(policy.consumerOfDeadLetter(request.topic, e.consumer));
            const QString key = inboxKey(e);
            if (m && !key.isEmpty())
                keysByMapping[m->name] << key;
        }
        QHash<QString, InboxKeyStates> found;
        for (auto it = keysByMapping.cbegin(); it != keysByMapping.cend(); ++it) {
            const InboxMapping &m = *inboxes.find(it.key());
            QString problem;
            if (PgSession *db = sessions.sessionFor(m, &problem))
                found.insert(it.key(), InboxKeyLookup::lookup(*db, {m}, it.value(), &problem));
            if (!problem.isEmpty())
                err.write("berth dlq scan: inbox " + m.name.toUtf8() + ": " + problem.toUtf8() + '\n');
        }
        return found;
    };

    // The field filter (ARCHITECTURE.md, Contracts: field filters): on each payload as masking left it, and
    // never by value on a field the policy masks.
    FieldFilter filter;
    if (parser.isSet(u"filter"_s)) {
        filter = FieldFilter::parse(parser.value(u"filter"_s), &error);
        if (!filter.isValid()) {
            err.write("berth dlq scan: " + error.toUtf8() + '\n');
            return 2;
        }
        if (const QString masked = filter.maskedComparison(policy.masking); !masked.isEmpty()) {
            err.write("berth dlq scan: --filter: " + masked.toUtf8() + '\n');
            return 2;
        }
    }
    qint64 matched = 0;

    const bool json = parser.isSet(u"json"_s);
    // Payloads: read back by coordinates and decoded; schemas from the registry (its client on a thread of
    // its own with an event loop, as this thread blocks in the scan) and from local files.
    const bool payloads = parser.isSet(u"payloads"_s);
    CommandSchemas schemaSources;
    schemaSources.setRegistry(parser, profile.schemaRegistry, request.requestTimeoutMs);
    const std::shared_ptr<SchemaCatalog> &catalog = schemaSources.catalog();
    const SchemaRegistryConfig &registry = schemaSources.registry();
    std::unique_ptr<DlqPayloadReader> payloadReader;
    // The scan masks entries as it reads them (their keys and reasons), finding masked payload fields
    // through the same schemas.
    const bool schemas = payloads || filter.isValid() || !policy.masking.isEmpty();
    request.masking = policy.masking;
    request.schemas = catalog;
    if (schemas && !schemaSources.open(parser, profile.schemaFiles, &error)) {
        err.write("berth dlq scan: " + error.toUtf8() + '\n');
        return 2;
    }
    if (payloads || filter.isValid()) {
        // The policy read above (a policy with errors was refused there: masking that could not be read
        // must not let values through).
        payloadReader = DlqPayloadReader::create(request.cluster, request.topic, catalog, registry.timeoutMs * 3,
                                                 policy, &error);
        if (!payloadReader) {
            err.write("berth dlq scan: " + error.toUtf8() + '\n');
            return 2;
        }
    }
    std::signal(SIGINT, onScanInterrupt);
    std::signal(SIGTERM, onScanInterrupt);
    auto strings = std::make_shared<StringPool>();
    DlqScanRun::Sink sink;
    sink.batchIntervalMs = 200;
    sink.cancelled = [] { return g_interrupted.load(); };
    sink.planned = [&](const DlqScanPlan &plan) {
        lookupKeys = plan.lookupKeys;
        for (const QString &note : plan.notes)
            err.write("berth dlq scan: " + note.toUtf8() + '\n');
    };
    sink.batch = [&](DlqScanBatch &&batch) {
        QByteArray chunk;
        QList<DlqEntryFields> entries;
        entries.reserve(batch.entries.size());
        for (qsizetype i = 0; i < batch.entries.size(); ++i)
            entries << DlqEntryFields::from(batch.entries[i], *strings);
        const QHash<QString, InboxKeyStates> states = inboxes.isEmpty() ? QHash<QString, InboxKeyStates>{}
                                                                         : inboxStates(entries);
        QHash<DlqPayloadReader::Coordinates, DlqPayloadReader::Payload> values;
        if (payloadReader) {
            QList<DlqPayloadReader::Coordinates> coordinates;
            for (const DlqIndexEntry &entry : batch.entries)
                coordinates.append({int(entry.partition), qint64(entry.offset)});
            QString readError;
            values = payloadReader->read(coordinates, &readError);
            if (!readError.isEmpty())
                err.write("berth dlq scan: payloads: " + readError.toUtf8() + '\n');
        }
        for (qsizetype i = 0; i < batch.entries.size(); ++i) {
            const DlqEntryFields &e = entries.at(i);
            if (filter.isValid()) {
                const auto it = values.constFind({e.partition, e.offset});
                if (it == values.cend() || !filter.matches(it->decoded))
                    continue;
                ++matched;
            }
            if (json) {
                QJsonObject o = entryToJson(e, batch.groupIds[i]);
                if (payloads) {
                    const auto it = values.constFind({e.partition, e.offset});
                    if (it != values.cend()) {
                        DlqRecordFormat::putPayload(o, it->decoded, it->value);
                        if (it->mask.any()) {
                            // The index's copies of key, reason and idempotency key, as masking left them.
                            o.insert(u"key"_s, it->keyIsNull ? QJsonValue(QJsonValue::Null)
                                                             : QJsonValue(QString::fromUtf8(it->key)));
                            o.insert(u"reason"_s, it->metadata.reason);
                            if (o.contains(u"idempotencyKey"_s))
                                o.insert(u"idempotencyKey"_s, it->metadata.idempotencyKey);
                            o.insert(u"masked"_s, QJsonArray::fromStringList(it->mask.fieldPaths + it->mask.headers
                                                                             + (it->mask.key ? QStringList{u"key"_s}
                                                                                             : QStringList{})));
                        }
                    } else
                        o.insert(u"payloadError"_s, u"the record could not be read back"_s);
                }
                const QString consumer = policy.consumerOfDeadLetter(request.topic, e.consumer);
                if (const InboxMapping *m = inboxes.find(consumer); m && states.contains(m->name)) {
                    const QString key = inboxKey(e);
                    const auto hit = states.value(m->name).constFind(key);
                    QJsonObject inbox{{u"consumer"_s, consumer}, {u"table"_s, m->qualifiedTable()}};
                    if (hit == states.value(m->name).cend()) {
                        inbox.insert(u"state"_s, u"absent"_s);
                    } else {
                        inbox.insert(u"status"_s, hit->status);
                        inbox.insert(u"state"_s, InboxMapping::stateKey(hit->state).isEmpty()
                                                     ? u"unknown"_s
                                                     : InboxMapping::stateKey(hit->state));
                        inbox.insert(u"replayIsNoOp"_s, !m->retakesFrom(hit->state));
                    }
                    o.insert(u"inbox"_s, inbox);
                }
                chunk += line(o);
            } else {
                DlqEntryFields shown = e;
                if (const auto it = values.constFind({e.partition, e.offset}); it != values.cend() && it->mask.any()) {
                    shown.reason = it->metadata.reason; // as masking left them
                    shown.key = QString::fromUtf8(it->key);
                }
                QString text =
                    QString::number(e.partition) + u'/' + QString::number(e.offset) + u'\t'
                    + (e.timestampMs < 0 ? QString()
                                         : QDateTime::fromMSecsSinceEpoch(e.timestampMs, Qt::UTC)
                                               .toString(Qt::ISODateWithMs))
                    + u'\t' + e.exceptionClass + u'\t' + oneLine(shown.reason) + u'\t' + oneLine(shown.key);
                if (payloads) {
                    const DlqPayloadReader::Payload p = values.value({e.partition, e.offset});
                    QJsonObject o;
                    DlqRecordFormat::putPayload(o, p.decoded, p.value);
                    text += u'\t' + QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
                }
                text += u'\n';
                chunk += text.toUtf8();
            }
        }
        out.write(chunk);
        out.flush();
    };
    const DlqScanResult result = DlqScanRun::run(request, 1, strings, sink);

    // Groups and poison messages come from the index: what masking took out of the records is taken out
    // of them too.
    DlqScanResult shown = result;
    if (payloadReader && !payloadReader->maskedValues().isEmpty()) {
        for (FailureGroup &g : shown.groups) {
            PayloadMask::scrub(g.sampleReason, payloadReader->maskedValues());
            PayloadMask::scrub(g.reasonPattern, payloadReader->maskedValues());
        }
        for (PoisonMessage &p : shown.poison)
            PayloadMask::scrub(p.messageId, payloadReader->maskedValues());
    }
    if (json) {
        for (const FailureGroup &g : shown.groups)
            out.write(line(groupToJson(g)));
        for (const PoisonMessage &p : shown.poison) {
            QJsonObject o{{u"type"_s, u"poison"_s},
                          {u"messageId"_s, p.messageId},
                          {u"failures"_s, p.failures},
                          {u"group"_s, qint64(p.groupId)},
                          {u"byIdempotencyKey"_s, p.byIdempotencyKey}};
            out.write(line(o));
        }
        QJsonObject summary{{u"type"_s, u"summary"_s},
                            {u"topic"_s, request.topic},
                            {u"records"_s, result.progress.records},
                            {u"bytes"_s, result.progress.bytes},
                            {u"elapsedMs"_s, result.progress.elapsedMs},
                            {u"groups"_s, qint64(result.groups.size())},
                            {u"cancelled"_s, result.cancelled}};
        if (filter.isValid()) {
            summary.insert(u"filter"_s, filter.text());
            summary.insert(u"matched"_s, matched);
        }
        if (!result.error.isEmpty())
            summary.insert(u"error"_s, result.error);
        if (!result.notes.isEmpty())
            summary.insert(u"notes"_s, QJsonArray::fromStringList(result.notes));
        out.write(line(summary));
    } else {
        out.write("\nFailure groups:\n");
        for (const FailureGroup &g : shown.groups)
            out.write(QByteArray::number(g.count) + '\t' + oneLine(g.fingerprint()).toUtf8() + '\n');
        for (const PoisonMessage &p : shown.poison)
            out.write("poison\t" + oneLine(p.messageId).toUtf8() + "\tfailed "
                      + QByteArray::number(p.failures) + " times\n");
        out.write(QByteArray::number(result.progress.records) + " records in "
                  + QByteArray::number(result.progress.elapsedMs) + " ms\n");
        if (filter.isValid())
            out.write(QByteArray::number(matched) + " passed the filter " + filter.text().toUtf8() + '\n');
    }
    out.flush();
    if (!result.error.isEmpty()) {
        err.write("berth dlq scan: " + result.error.toUtf8() + '\n');
        return 1;
    }
    return 0;
}
} // namespace Commands
