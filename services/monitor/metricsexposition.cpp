#include "metricsexposition.h"

#include "alertrules.h"
#include "monitorservice.h"

#include <QSet>

using namespace Qt::StringLiterals;

namespace {
// Label values: backslash, double quote and line feed escaped, as the text format requires.
QByteArray labelValue(const QString &value)
{
    QByteArray out;
    const QByteArray utf8 = value.toUtf8();
    out.reserve(utf8.size() + 2);
    for (const char c : utf8) {
        if (c == '\\')
            out += "\\\\";
        else if (c == '"')
            out += "\\\"";
        else if (c == '\n')
            out += "\\n";
        else
            out += c;
    }
    return out;
}

class Exposition {
public:
    void family(const char *name, const char *type, const char *help)
    {
        m_name = name;
        m_text += "# HELP ";
        m_text += name;
        m_text += ' ';
        m_text += help;
        m_text += "\n# TYPE ";
        m_text += name;
        m_text += ' ';
        m_text += type;
        m_text += '\n';
    }
    void sample(std::initializer_list<std::pair<const char *, QString>> labels, double value)
    {
        m_text += m_name;
        m_text += '{';
        bool first = true;
        for (const auto &[label, v] : labels) {
            if (!first)
                m_text += ',';
            first = false;
            m_text += label;
            m_text += "=\"";
            m_text += labelValue(v);
            m_text += '"';
        }
        m_text += "} ";
        m_text += QByteArray::number(value, 'g', 17);
        m_text += '\n';
    }
    QByteArray text() const { return m_text; }

private:
    QByteArray m_name;
    QByteArray m_text;
};

// The policy file's words for the inbox states (ARCHITECTURE.md, Contracts: Inbox mapping).
const char *stateLabel(InboxState state)
{
    switch (state) {
    case InboxState::InProgress: return "inProgress";
    case InboxState::Completed: return "completed";
    case InboxState::FailedRetryable: return "failedRetryable";
    case InboxState::FailedTerminal: return "failedTerminal";
    case InboxState::Parked: return "parked";
    case InboxState::Skipped: return "skipped";
    case InboxState::Unknown: return "unknown";
    }
    return "unknown";
}

// A board's consumer name: the mapping's when the table has no consumer column.
QString consumerOf(const InboxBoard &board, const InboxConsumerCounts &counts)
{
    return counts.consumer.isEmpty() ? board.mappingName : counts.consumer;
}
} // namespace

QByteArray prometheusExposition(const MonitorService &monitor)
{
    const QStringList dlqTopics = monitor.dlqTopics();
    const QList<Alert> active = monitor.alerts()->activeAlerts();
    return prometheusExposition(MetricsInputs{monitor.lastSample(), monitor.lastBoards(), monitor.lastDuplicates(),
                                              monitor.rules().dlqArrivals(), dlqTopics, active});
}

QByteArray prometheusExposition(const MetricsInputs &inputs)
{
    Exposition e;
    const LagSnapshot &sample = inputs.sample;
    e.family("berth_consumergroup_lag_messages", "gauge", "Records behind the end offset, per group partition.");
    for (const PartitionLag &row : sample.rows)
        e.sample({{"group", row.group}, {"topic", row.topic}, {"partition", QString::number(row.partition)}},
                 double(row.lag));
    e.family("berth_consumergroup_lag_seconds", "gauge",
             "Time lag per group partition: how old the next record to consume is (left out when unknown).");
    for (const PartitionLag &row : sample.rows) {
        if (row.timeLagMs >= 0)
            e.sample({{"group", row.group}, {"topic", row.topic}, {"partition", QString::number(row.partition)}},
                     double(row.timeLagMs) / 1000.0);
    }
    e.family("berth_consumergroup_status", "gauge", "1 for the group's current status (OK, WARN, STALL, STOP, REWIND).");
    for (const GroupLag &group : sample.groupRows) {
        for (const LagStatus status : {LagStatus::Ok, LagStatus::Warn, LagStatus::Rewind, LagStatus::Stall, LagStatus::Stop})
            e.sample({{"group", group.group}, {"status", lagStatusName(status)}}, group.status == status ? 1 : 0);
    }
    e.family("berth_dlq_records_total", "counter", "Dead letters seen arriving on each DLQ topic since Berth started.");
    for (const QString &topic : inputs.dlqTopics)
        e.sample({{"topic", topic}}, double(inputs.dlqArrivals.arrivalsTotal(topic)));
    e.family("berth_duplicate_records_total", "counter",
             "Records whose idempotency key was already seen within the window, per tailed topic.");
    const DuplicateStats &duplicates = inputs.duplicates;
    for (auto it = duplicates.topics.cbegin(); it != duplicates.topics.cend(); ++it)
        e.sample({{"topic", it.key()}}, double(it->duplicates));

    const QHash<QString, InboxBoard> &boards = inputs.boards;
    QStringList mappings = boards.keys();
    mappings.sort();
    e.family("berth_inbox_rows", "gauge", "Inbox rows per consumer and state.");
    for (const QString &mapping : std::as_const(mappings)) {
        const InboxBoard &board = boards[mapping];
        for (const InboxConsumerCounts &counts : board.consumers) {
            for (int s = 0; s < InboxStateCount; ++s)
                e.sample({{"consumer", consumerOf(board, counts)}, {"state", QString::fromLatin1(stateLabel(InboxState(s)))}},
                         double(counts.counts[size_t(s)]));
        }
    }
    e.family("berth_inbox_oldest_stuck_age_seconds", "gauge",
             "Age of the oldest row in progress past the mapping's stuck after; 0 when none is stuck.");
    for (const QString &mapping : std::as_const(mappings)) {
        const InboxBoard &board = boards[mapping];
        for (const InboxConsumerCounts &counts : board.consumers) {
            const bool stuck = board.hasStuck && board.oldestStuck.consumer == counts.consumer;
            e.sample({{"consumer", consumerOf(board, counts)}}, stuck ? board.oldestStuck.ageSeconds : 0.0);
        }
    }
    e.family("berth_outbox_pending_rows", "gauge", "Outbox rows not yet published, per inbox mapping's consumer.");
    for (const QString &mapping : std::as_const(mappings)) {
        const InboxBoard &board = boards[mapping];
        if (!board.hasOutbox || !board.outboxError.isEmpty())
            continue;
        // The outbox belongs to the table's service: named after its one consumer, else the mapping.
        const QString consumer = board.consumers.size() == 1 ? consumerOf(board, board.consumers.first()) : mapping;
        e.sample({{"consumer", consumer}}, double(board.outbox.pending));
    }
    e.family("berth_alerts_firing", "gauge", "1 for each alert that is active, by rule and subject.");
    QSet<QPair<QString, QString>> firing;
    for (const Alert &alert : inputs.activeAlerts) {
        if (!firing.contains({alert.rule, alert.subject})) {
            firing.insert({alert.rule, alert.subject});
            e.sample({{"rule", alert.rule}, {"subject", alert.subject}}, 1);
        }
    }
    return e.text();
}
