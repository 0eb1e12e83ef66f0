#include "inboxmapping.h"

#include <algorithm>

using namespace Qt::StringLiterals;

namespace {
// PostgreSQL silently truncates longer names (NAMEDATALEN - 1), which would make a typo or a hostile
// string address a different object than the one the operator wrote; refuse instead.
constexpr qsizetype MaxIdentifierBytes = 63;

QString checkIdentifier(const QString &what, const QString &value, bool required)
{
    if (value.isEmpty())
        return required ? u"the mapping has no %1"_s.arg(what) : QString();
    if (value.toUtf8().size() > MaxIdentifierBytes)
        return u"the %1 \u201c%2\u201d is longer than PostgreSQL's %3-byte identifier limit"_s.arg(
            what, value.left(80), QString::number(MaxIdentifierBytes));
    if (value.contains(QChar(0)))
        return u"the %1 contains a NUL character"_s.arg(what);
    return {};
}
} // namespace

namespace {
// One row per state: the policy file's key and the short English name (the order of InboxState).
struct InboxStateNames {
    const char16_t *key;
    const char16_t *name;
};
constexpr InboxStateNames kStateNames[InboxStateCount] = {
    {u"inProgress", u"in progress"},         {u"completed", u"completed"}, {u"failedRetryable", u"failed retryable"},
    {u"failedTerminal", u"failed terminal"}, {u"parked", u"parked"},       {u"skipped", u"skipped"},
    {nullptr, u"unknown"},
};
} // namespace

QString inboxStateName(InboxState state)
{
    const int i = int(state);
    return QString::fromUtf16(kStateNames[i >= 0 && i < InboxStateCount ? i : int(InboxState::Unknown)].name);
}

QString InboxMapping::stateKey(InboxState state)
{
    const int i = int(state);
    return i >= 0 && i < InboxStateCount && kStateNames[i].key ? QString::fromUtf16(kStateNames[i].key) : QString();
}

bool InboxMapping::stateFromKey(QStringView key, InboxState *state)
{
    for (int s = 0; s < int(InboxState::Unknown); ++s) {
        if (key == stateKey(InboxState(s))) {
            *state = InboxState(s);
            return true;
        }
    }
    return false;
}

QStringList InboxMapping::statusesFor(InboxState state) const
{
    QStringList out;
    for (auto it = statuses.cbegin(); it != statuses.cend(); ++it) {
        if (it.value() == state)
            out << it.key();
    }
    std::sort(out.begin(), out.end());
    return out;
}

QString InboxMapping::qualifiedTable() const
{
    return schema.isEmpty() ? table : schema + u'.' + table;
}

QString InboxMapping::tableText(const QString &schema, const QString &table)
{
    const auto part = [](const QString &name) -> QString {
        const bool plain = !name.isEmpty() && !name.contains(u'.') && !name.contains(u'"')
                           && name.trimmed() == name;
        if (plain)
            return name;
        QString quoted = name;
        quoted.replace(u'"', u"\"\""_s);
        return u'"' + quoted + u'"';
    };
    return schema.isEmpty() ? part(table) : part(schema) + u'.' + part(table);
}

void InboxMapping::parseTableText(const QString &text, QString *schema, QString *table, QString *error)
{
    QStringList parts{QString()};
    bool quoted = false;
    bool wasQuoted = false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (quoted) {
            if (c == u'"' && i + 1 < text.size() && text.at(i + 1) == u'"') {
                parts.last() += u'"';
                ++i;
            } else if (c == u'"') {
                quoted = false;
            } else {
                parts.last() += c;
            }
        } else if (c == u'"') {
            quoted = wasQuoted = true;
        } else if (c == u'.') {
            parts.append(QString());
        } else {
            parts.last() += c;
        }
    }
    error->clear();
    if (quoted) {
        *error = u"the table name \u201c%1\u201d has an unclosed double quote"_s.arg(text);
        return;
    }
    if (!wasQuoted) {
        for (QString &p : parts)
            p = p.trimmed();
    }
    if (parts.size() > 2) {
        *error = u"the table name \u201c%1\u201d has more than schema and table (quote a name that holds "
                 u"a dot)"_s.arg(text);
        return;
    }
    if (parts.contains(QString())) {
        *error = u"the table name \u201c%1\u201d has an empty part"_s.arg(text);
        return;
    }
    *schema = parts.size() == 2 ? parts.at(0) : QString();
    *table = parts.last();
}

QString InboxMapping::validate() const
{
    const struct {
        QString what;
        const QString &value;
        bool required;
    } identifiers[] = {
        {u"schema"_s, schema, false},
        {u"table"_s, table, true},
        {u"consumer column"_s, consumerColumn, false},
        {u"message id column"_s, messageIdColumn, true},
        {u"status column"_s, statusColumn, true},
        {u"first-seen column"_s, firstSeenColumn, false},
        {u"updated column"_s, updatedColumn, true},
        {u"attempts column"_s, attemptsColumn, false},
        {u"error column"_s, errorColumn, false},
        {u"topic column"_s, topicColumn, false},
        {u"payload column"_s, payloadColumn, false},
        {u"outbox schema"_s, outbox.schema, false},
        {u"outbox table"_s, outbox.table, false},
        {u"outbox status column"_s, outbox.statusColumn, outbox.isConfigured()},
        {u"outbox created column"_s, outbox.createdColumn, outbox.isConfigured()},
    };
    for (const auto &id : identifiers) {
        const QString problem = checkIdentifier(id.what, id.value, id.required);
        if (!problem.isEmpty())
            return problem;
    }
    if (outbox.isConfigured() && outbox.pendingStatus.isEmpty())
        return u"the outbox mapping has no pending status"_s;
    if (statusesFor(InboxState::InProgress).isEmpty())
        return u"the status vocabulary maps nothing to \u201cin progress\u201d"_s;
    if (stuckAfterSeconds <= 0)
        return u"\u201cstuck after\u201d must be a positive number of seconds"_s;
    return {};
}

InboxMapping InboxMapping::seed000ProcessedMessage()
{
    InboxMapping m;
    m.name = u"seed 000: processed_message"_s;
    m.table = u"processed_message"_s;
    m.consumerColumn = u"consumer_name"_s;
    m.messageIdColumn = u"message_id"_s;
    m.statusColumn = u"status"_s;
    m.firstSeenColumn = u"first_seen_at"_s;
    m.updatedColumn = u"updated_at"_s;
    m.errorColumn = u"error_code"_s;
    m.statuses = {
        {u"IN_PROGRESS"_s, InboxState::InProgress},
        {u"COMPLETED"_s, InboxState::Completed},
        {u"FAILED_RETRYABLE"_s, InboxState::FailedRetryable},
        {u"FAILED_TERMINAL"_s, InboxState::FailedTerminal},
        {u"PARKED"_s, InboxState::Parked},
        {u"SKIPPED"_s, InboxState::Skipped},
    };
    m.skippedStatus = u"SKIPPED"_s;
    return m;
}

InboxMapping InboxMapping::seed001ProcessedEvents()
{
    InboxMapping m;
    m.name = u"seed 001: processed_events"_s;
    m.table = u"processed_events"_s;
    m.consumerColumn = u"consumer_group"_s;
    m.messageIdColumn = u"idempotency_key"_s;
    m.statusColumn = u"status"_s;
    m.firstSeenColumn = u"received_at"_s;
    m.updatedColumn = u"updated_at"_s;
    m.attemptsColumn = u"attempt_count"_s;
    m.errorColumn = u"last_error"_s;
    m.topicColumn = u"topic"_s;
    // Seed 001 retries FAILED rows on redelivery, so FAILED is retryable; it has no terminal or skip word.
    m.statuses = {
        {u"RECEIVED"_s, InboxState::InProgress},
        {u"PROCESSING"_s, InboxState::InProgress},
        {u"COMPLETED"_s, InboxState::Completed},
        {u"FAILED"_s, InboxState::FailedRetryable},
    };
    m.outbox = {QString(), u"outbox"_s, u"status"_s, u"created_at"_s, u"pending"_s};
    return m;
}

QList<InboxMapping> InboxMapping::presets()
{
    return {seed000ProcessedMessage(), seed001ProcessedEvents()};
}
