#include "services/policy/inboxpolicyyaml.h"

#include "services/policy/policyloader.h"

#include <yaml-cpp/yaml.h>

using namespace Qt::StringLiterals;

namespace {
std::string utf8(const QString &text)
{
    return text.toStdString();
}

void pair(YAML::Emitter &out, const char *key, const QString &value)
{
    if (!value.isEmpty())
        out << YAML::Key << key << YAML::Value << YAML::DoubleQuoted << utf8(value);
}

void writeMapping(YAML::Emitter &out, const InboxMapping &m)
{
    out << YAML::Key << "inbox" << YAML::Value << YAML::BeginMap;
    pair(out, "database", m.database);
    pair(out, "table", InboxMapping::tableText(m.schema, m.table));
    out << YAML::Key << "columns" << YAML::Value << YAML::Flow << YAML::BeginMap;
    pair(out, "messageId", m.messageIdColumn);
    pair(out, "status", m.statusColumn);
    pair(out, "updated", m.updatedColumn);
    pair(out, "firstSeen", m.firstSeenColumn);
    pair(out, "attempts", m.attemptsColumn);
    pair(out, "error", m.errorColumn);
    pair(out, "consumer", m.consumerColumn);
    pair(out, "topic", m.topicColumn);
    pair(out, "payload", m.payloadColumn);
    out << YAML::EndMap;
    // The loader defaults consumerValue to the consumer's name; only a different value is written.
    if (m.consumerValue != m.name)
        pair(out, "consumerValue", m.consumerValue);
    out << YAML::Key << "statuses" << YAML::Value << YAML::Flow << YAML::BeginMap;
    for (int s = 0; s < int(InboxState::Unknown); ++s) {
        for (const QString &word : m.statusesFor(InboxState(s)))
            out << YAML::Key << YAML::DoubleQuoted << utf8(word) << YAML::Value
                << utf8(InboxMapping::stateKey(InboxState(s)));
    }
    out << YAML::EndMap;
    pair(out, "skippedStatus", m.skippedStatus);
    pair(out, "releaseTo", m.releaseTo);
    out << YAML::Key << "stuckAfterSeconds" << YAML::Value << m.stuckAfterSeconds;
    out << YAML::Key << "retakes" << YAML::Value << YAML::Flow << YAML::BeginSeq;
    for (InboxState s : m.retakes)
        out << utf8(InboxMapping::stateKey(s));
    out << YAML::EndSeq;
    out << YAML::EndMap;
    if (m.outbox.isConfigured()) {
        out << YAML::Key << "outbox" << YAML::Value << YAML::Flow << YAML::BeginMap;
        pair(out, "table", InboxMapping::tableText(m.outbox.schema, m.outbox.table));
        pair(out, "status", m.outbox.statusColumn);
        pair(out, "created", m.outbox.createdColumn);
        pair(out, "pending", m.outbox.pendingStatus);
        out << YAML::EndMap;
    }
}
} // namespace

QString InboxPolicyYaml::write(const QList<InboxMapping> &mappings)
{
    YAML::Emitter out;
    out.SetIndent(2);
    out << YAML::BeginMap << YAML::Key << "deliverySemantics" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "consumers" << YAML::Value << YAML::BeginMap;
    for (const InboxMapping &m : mappings) {
        out << YAML::Key << YAML::DoubleQuoted << utf8(m.name) << YAML::Value << YAML::BeginMap;
        writeMapping(out, m);
        out << YAML::EndMap;
    }
    out << YAML::EndMap << YAML::EndMap << YAML::EndMap;
    return QString::fromUtf8(out.c_str()) + u'\n';
}

QList<InboxMapping> InboxPolicyYaml::read(const QString &yaml, QStringList *problems)
{
    const PolicyLoadResult result = loadPolicy(yaml.toUtf8(), QString());
    if (problems) {
        problems->clear();
        for (const PolicyDiagnostic &d : result.diagnostics) {
            // "deliverySemantics states no topics and no consumers" is what an empty set of mappings reads as.
            if (d.severity == PolicyDiagnostic::Error)
                problems->append(formatDiagnostic({}, d));
        }
    }
    return result.policy.inboxMappings();
}
