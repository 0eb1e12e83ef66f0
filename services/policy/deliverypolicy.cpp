#include "services/policy/deliverypolicy.h"

using namespace Qt::StringLiterals;

QString RecordField::describe() const
{
    switch (kind) {
    case Kind::Header:
        return u"header "_s + name;
    case Kind::JsonPath:
        return u"JSON path "_s + name;
    case Kind::RecordKey:
        return u"record key"_s;
    case Kind::NotStated:
        break;
    }
    return {};
}

ReplayAllowance parseReplayAllowance(const QString &text)
{
    const QString t = text.trimmed().toLower();
    if (t.isEmpty())
        return ReplayAllowance::NotStated;
    if (t == "true"_L1 || t == "yes"_L1 || t == "on"_L1)
        return ReplayAllowance::Allowed;
    if (t == "false"_L1 || t == "no"_L1 || t == "off"_L1)
        return ReplayAllowance::NotAllowed;
    if (t == "false-for-side-effect"_L1 || t == "false-for-side-effects"_L1)
        return ReplayAllowance::NotForSideEffects;
    return ReplayAllowance::Unrecognised;
}

qint64 parseDurationMs(const QString &text)
{
    const QString t = text.trimmed().toLower();
    qsizetype digits = 0;
    while (digits < t.size() && t.at(digits).isDigit())
        ++digits;
    if (digits == 0 || digits > 12) // more than 12 digits would overflow days in milliseconds
        return -1;
    const qint64 n = t.left(digits).toLongLong();
    const QStringView unit = QStringView(t).mid(digits).trimmed();
    static constexpr struct {
        QLatin1StringView suffix;
        qint64 ms;
    } units[] = {
        {""_L1, 1},         {"ms"_L1, 1},        {"s"_L1, 1000},       {"m"_L1, 60'000},
        {"min"_L1, 60'000}, {"h"_L1, 3'600'000}, {"d"_L1, 86'400'000}, {"w"_L1, 604'800'000},
    };
    for (const auto &u : units) {
        if (unit == u.suffix)
            return n * u.ms;
    }
    return -1;
}

const ConsumerPolicy *DeliveryPolicy::consumer(const QString &name) const
{
    for (const ConsumerPolicy &c : consumers) {
        if (c.name == name)
            return &c;
    }
    return nullptr;
}

MaskRule DeliveryPolicy::maskFor(const QString &topic, const QString &originalTopic) const
{
    return maskForAny(topic, originalTopic.isEmpty() ? QStringList() : QStringList{originalTopic});
}

MaskRule DeliveryPolicy::maskForAny(const QString &topic, const QStringList &originalTopics) const
{
    MaskRule merged;
    for (const MaskRule &r : masking) {
        if (r.topic.isEmpty() || (r.topic != topic && !originalTopics.contains(r.topic)))
            continue;
        merged.topic = r.topic;
        for (const QString &f : r.fields) {
            if (!merged.fields.contains(f))
                merged.fields.append(f);
        }
        for (const QString &h : r.headers) {
            if (!merged.headers.contains(h, Qt::CaseInsensitive))
                merged.headers.append(h);
        }
        merged.key = merged.key || r.key;
    }
    return merged;
}

const TopicPolicy *DeliveryPolicy::topic(const QString &name) const
{
    for (const TopicPolicy &t : topics) {
        if (t.name == name)
            return &t;
    }
    return nullptr;
}

QStringList DeliveryPolicy::consumerGroups() const
{
    QStringList names;
    names.reserve(consumers.size());
    for (const ConsumerPolicy &c : consumers)
        names.append(c.name);
    return names;
}

QStringList DeliveryPolicy::dlqTopics() const
{
    QStringList names;
    for (const ConsumerPolicy &c : consumers) {
        if (!c.dlqTopic.isEmpty() && !names.contains(c.dlqTopic))
            names.append(c.dlqTopic);
    }
    return names;
}

QList<InboxMapping> DeliveryPolicy::inboxMappings() const
{
    QList<InboxMapping> out;
    for (const ConsumerPolicy &c : consumers) {
        if (c.inbox)
            out.append(*c.inbox);
    }
    return out;
}

QString DeliveryPolicy::consumerOfDeadLetter(const QString &dlqTopic, const QString &consumerHeader) const
{
    if (!consumerHeader.isEmpty())
        return consumerHeader;
    QString found;
    for (const ConsumerPolicy &c : consumers) {
        if (dlqTopic.isEmpty() || c.dlqTopic != dlqTopic)
            continue;
        if (!found.isEmpty())
            return {}; // two consumers share the DLQ topic: the record does not say whose it is
        found = c.name;
    }
    return found;
}
