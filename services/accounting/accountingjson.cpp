#include "services/accounting/accountingjson.h"

#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace {
// A key as shown (masked where the policy masks it); null for none.
QJsonValue keyValue(const QString &shown)
{
    return shown.isNull() ? QJsonValue(QJsonValue::Null) : QJsonValue(shown);
}
} // namespace

QJsonObject AccountingJson::record(const AccountingResult &result, const AccountedRecord &r)
{
    QJsonObject o{{u"type"_s, u"record"_s},
                  {u"class"_s, accountClassKey(r.cls)},
                  {u"partition"_s, r.partition},
                  {u"offset"_s, r.offset},
                  {u"timestamp"_s, r.timestampMs},
                  {u"key"_s, keyValue(result.recordKeyText(r.recordKey))},
                  {u"idempotencyKey"_s, keyValue(result.idempotencyKeyText(r.idempotencyKey))}};
    if (r.sequence != AccountedRecord::NoSequence)
        o.insert(u"sequence"_s, r.sequence);
    if (r.notes)
        o.insert(u"notes"_s, QJsonArray::fromStringList(AccountNote::names(r.notes)));
    return o;
}

QJsonObject AccountingJson::finding(const AccountingResult &result, const SequenceFinding &f)
{
    QJsonObject o{{u"type"_s, u"order"_s},
                  {u"kind"_s, sequenceKindKey(f.kind)},
                  {u"key"_s, keyValue(result.recordKeyText(f.key))},
                  {u"partition"_s, f.partition},
                  {u"offset"_s, f.offset}};
    if (f.previousOffset >= 0) {
        o.insert(u"previousPartition"_s, f.previousPartition);
        o.insert(u"previousOffset"_s, f.previousOffset);
        o.insert(u"acrossPartitions"_s, f.acrossPartitions);
    }
    if (f.kind != SequenceFinding::Kind::DlqAndContinue || f.sequence != AccountedRecord::NoSequence)
        o.insert(u"sequence"_s, f.sequence);
    if (f.kind == SequenceFinding::Kind::Gap) {
        o.insert(u"firstMissing"_s, f.expected);
        o.insert(u"missing"_s, f.missing);
    } else if (f.kind != SequenceFinding::Kind::DlqAndContinue) {
        o.insert(u"highestBefore"_s, f.expected);
    }
    return o;
}

QJsonObject AccountingJson::summary(const AccountingResult &result)
{
    QJsonObject classes;
    qint64 total = 0;
    for (int c = 0; c < AccountClassCount; ++c) {
        classes.insert(accountClassKey(AccountClass(c)), result.counts[size_t(c)]);
        total += result.counts[size_t(c)];
    }
    QJsonObject noteKinds;
    for (int n = 0; n < AccountNote::Count; ++n) {
        if (result.noteCounts[size_t(n)])
            noteKinds.insert(AccountNote::names(quint16(1u << n)).value(0), result.noteCounts[size_t(n)]);
    }
    QJsonObject order;
    for (const auto kind : {SequenceFinding::Kind::Gap, SequenceFinding::Kind::OutOfOrder,
                            SequenceFinding::Kind::Repeat, SequenceFinding::Kind::DlqAndContinue})
        order.insert(sequenceKindKey(kind), result.sequenceCount(kind));
    QJsonArray window;
    for (const AccountingPartition &p : result.partitions) {
        QJsonObject w{{u"partition"_s, p.partition},
                      {u"from"_s, p.from},
                      {u"to"_s, p.to},
                      {u"committed"_s, p.committed},
                      {u"records"_s, p.read}};
        if (p.caughtUpBehindMarkers)
            w.insert(u"caughtUpBehindMarkers"_s, true);
        window.append(w);
    }
    QJsonObject o{{u"type"_s, u"summary"_s},
                  {u"group"_s, result.group},
                  {u"topic"_s, result.topic},
                  {u"records"_s, total},
                  {u"classes"_s, classes},
                  {u"notes"_s, result.notes},
                  {u"noteKinds"_s, noteKinds},
                  {u"order"_s, order},
                  {u"window"_s, window},
                  {u"dlqTopics"_s, QJsonArray::fromStringList(result.dlqTopics)},
                  {u"keySource"_s, result.keySource},
                  {u"inboxChecked"_s, result.inboxChecked},
                  {u"isolationLevel"_s, result.readCommitted ? u"read_committed"_s : u"read_uncommitted"_s}};
    if (!result.messages.isEmpty())
        o.insert(u"messages"_s, QJsonArray::fromStringList(result.messages));
    return o;
}

QJsonObject AccountingJson::semantics(const DeliverySemanticsVerdict &v)
{
    return {{u"consumer"_s, v.consumer},
            {u"promised"_s, deliveryGuaranteeKey(v.promised)},
            {u"promisedBecause"_s, v.promisedBecause},
            {u"observed"_s, deliveryGuaranteeKey(v.observed)},
            {u"contradictions"_s, QJsonArray::fromStringList(v.contradictions)},
            {u"lostKeys"_s, QJsonArray::fromStringList(v.lostKeys)}};
}

QString AccountingJson::summaryText(const AccountingResult &result)
{
    QString text =
        u"%1 on %2: %3 records\n"_s.arg(result.group, result.topic).arg(qint64(result.records.size()));
    for (int c = 0; c < AccountClassCount; ++c)
        text += u"  %1 %2\n"_s.arg(accountClassKey(AccountClass(c)), -13).arg(result.counts[size_t(c)]);
    text += u"  %1 %2\n"_s.arg(u"notes"_s, -13).arg(result.notes);
    if (!result.inboxChecked)
        text += u"  (no inbox: processed records are unverified)\n"_s;
    return text;
}
