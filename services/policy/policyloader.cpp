#include "services/policy/policyloader.h"

#include <QFile>
#include <QSet>

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/parser.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <exception>
#include <functional>
#include <initializer_list>
#include <sstream>
#include <string>
#include <vector>

using namespace Qt::StringLiterals;

// The demo policy lives in the services library's resources; a static library's resources must be pulled in.
static void initServicesResources()
{
    Q_INIT_RESOURCE(services);
}

namespace {

QString fromYaml(const std::string &s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

// Values are quoted in messages; a pasted blob should not make a diagnostic unreadable.
QString quoted(const std::string &s)
{
    QString text = fromYaml(s);
    if (text.size() > 60)
        text = text.left(57) + "..."_L1;
    return u'\'' + text + u'\'';
}

QString kindName(const YAML::Node &node)
{
    switch (node.Type()) {
    case YAML::NodeType::Sequence:
        return u"a list"_s;
    case YAML::NodeType::Map:
        return u"a mapping"_s;
    case YAML::NodeType::Null:
        return u"nothing"_s;
    case YAML::NodeType::Scalar:
        return quoted(node.Scalar());
    default:
        return u"an undefined value"_s;
    }
}

// Turns the YAML tree into a DeliveryPolicy, collecting diagnostics instead of stopping at the first.
// The shape is fixed, so recursion is bounded by it whatever the input nests (unknown subtrees are never
// walked); anchors that alias their own ancestor cannot loop.
class PolicyReader final {
public:
    using Handler = std::function<void(const YAML::Node &value, const QString &path)>;
    struct Field {
        QLatin1StringView key;
        Handler read;
    };

    QList<PolicyDiagnostic> diagnostics;

    void add(PolicyDiagnostic::Severity severity, const YAML::Mark &mark, const QString &message)
    {
        const bool known = !mark.is_null() && mark.line >= 0 && mark.column >= 0;
        diagnostics.append({severity, known ? mark.line + 1 : 0, known ? mark.column + 1 : 0, message});
    }
    void error(const YAML::Node &node, const QString &message)
    {
        add(PolicyDiagnostic::Error, node.Mark(), message);
    }
    void warning(const YAML::Node &node, const QString &message)
    {
        add(PolicyDiagnostic::Warning, node.Mark(), message);
    }

    // Calls the field's reader for each known key; warns about the rest. A missing or empty mapping
    // (`dlq:` with nothing under it) states nothing, which is not an error.
    void readMap(const YAML::Node &map, const QString &path, std::initializer_list<Field> fields)
    {
        if (!expectMap(map, path))
            return;
        forEachEntry(map, path, [&](const QString &key, const YAML::Node &keyNode, const YAML::Node &value) {
            for (const Field &f : fields) {
                if (key == f.key) {
                    f.read(value, path + u'.' + key);
                    return;
                }
            }
            warning(keyNode, u"unknown key %1 in %2 (ignored)"_s.arg(quoted(keyNode.Scalar()), path));
        });
    }

    // For mappings whose keys are names (topics, consumers).
    template <typename F> void forEachEntry(const YAML::Node &map, const QString &path, F &&f)
    {
        QSet<QString> seen;
        for (const auto &entry : map) {
            const YAML::Node &keyNode = entry.first;
            if (!keyNode.IsScalar() || keyNode.Scalar().empty()) {
                warning(keyNode, u"%1: a key must be a non-empty name, got %2 (ignored)"_s.arg(
                                     path, kindName(keyNode)));
                continue;
            }
            const QString key = fromYaml(keyNode.Scalar());
            if (seen.contains(key)) {
                warning(keyNode, u"%1 appears twice in %2; this later one is ignored"_s.arg(
                                     quoted(keyNode.Scalar()), path));
                continue;
            }
            seen.insert(key);
            f(key, keyNode, entry.second);
        }
    }

    bool expectMap(const YAML::Node &node, const QString &path)
    {
        if (node.IsMap())
            return true;
        if (!node.IsNull())
            error(node, u"%1: expected a mapping, got %2"_s.arg(path, kindName(node)));
        return false;
    }

    // Text answers. Null (`owner:` with nothing after it) stays "not stated".
    Handler text(QString &out)
    {
        return [this, &out](const YAML::Node &value, const QString &path) {
            if (value.IsNull())
                return;
            if (!value.IsScalar()) {
                error(value, u"%1: expected a text value, got %2"_s.arg(path, kindName(value)));
                return;
            }
            restated(value, path, !out.isEmpty());
            out = fromYaml(value.Scalar()).trimmed();
        };
    }

    Handler boolean(std::optional<bool> &out)
    {
        return [this, &out](const YAML::Node &value, const QString &path) {
            if (value.IsNull())
                return;
            bool b = false;
            if (!value.IsScalar() || !YAML::convert<bool>::decode(value, b)) {
                error(value, u"%1: expected true or false, got %2"_s.arg(path, kindName(value)));
                return;
            }
            restated(value, path, out.has_value());
            out = b;
        };
    }

    Handler integer(std::optional<int> &out, int minimum)
    {
        return [this, &out, minimum](const YAML::Node &value, const QString &path) {
            if (value.IsNull())
                return;
            int n = 0;
            if (!value.IsScalar() || !YAML::convert<int>::decode(value, n)) {
                error(value, u"%1: expected a whole number, got %2"_s.arg(path, kindName(value)));
                return;
            }
            if (n < minimum) {
                error(value, u"%1: must be at least %2, got %3"_s.arg(path, QString::number(minimum),
                                                                      QString::number(n)));
                return;
            }
            restated(value, path, out.has_value());
            out = n;
        };
    }

    Handler replay(QString &textOut, ReplayAllowance &out)
    {
        return [this, &textOut, &out](const YAML::Node &value, const QString &path) {
            QString t;
            text(t)(value, path);
            if (t.isEmpty())
                return;
            textOut = t;
            out = parseReplayAllowance(t);
            if (out == ReplayAllowance::Unrecognised)
                warning(value, u"%1: %2 is not one of true, false, false-for-side-effect"_s.arg(
                                   path, quoted(value.Scalar())));
        };
    }

    void restated(const YAML::Node &value, const QString &path, bool alreadyStated)
    {
        if (alreadyStated)
            warning(value, u"%1 is stated twice; this later value wins"_s.arg(path));
    }

    // {header: NAME}, {jsonPath: $.a.b} or (where allowed) {recordKey: true}.
    RecordField readRecordField(const YAML::Node &value, const QString &path, bool recordKeyAllowed)
    {
        QString header, jsonPath;
        std::optional<bool> recordKey;
        readMap(value, path,
                {{"header"_L1, text(header)}, {"jsonPath"_L1, text(jsonPath)}, {"recordKey"_L1, boolean(recordKey)}});
        if (recordKey && !recordKeyAllowed) {
            warning(value, u"%1: recordKey is not a choice here (ignored)"_s.arg(path));
            recordKey.reset();
        }
        if (!header.isEmpty())
            return {RecordField::Kind::Header, header};
        if (!jsonPath.isEmpty())
            return {RecordField::Kind::JsonPath, jsonPath};
        if (recordKey.value_or(false))
            return {RecordField::Kind::RecordKey, {}};
        return {};
    }

    void readTopic(const QString &name, const YAML::Node &keyNode, const YAML::Node &value,
                   const QString &path, TopicPolicy &t)
    {
        t.name = name;
        t.line = keyNode.Mark().is_null() ? 0 : keyNode.Mark().line + 1;
        std::optional<int> partitions;
        readMap(value, path,
                {
                    {"defaultGuarantee"_L1, text(t.defaultGuarantee)},
                    {"key"_L1, text(t.key)},
                    {"ordering"_L1, text(t.ordering)},
                    {"retention"_L1,
                     [this, &t](const YAML::Node &v, const QString &p) {
                         text(t.retention)(v, p);
                         if (t.retention.isEmpty())
                             return;
                         t.retentionMs = parseDurationMs(t.retention);
                         if (t.retentionMs < 0)
                             warning(v, u"%1: %2 is not a duration such as 7d, 12h, 30m"_s.arg(
                                            p, quoted(v.Scalar())));
                     }},
                    {"replayAllowed"_L1, replay(t.replayAllowedText, t.replayAllowed)},
                    {"partitions"_L1, integer(partitions, 1)},
                    {"sequence"_L1,
                     [this, &t](const YAML::Node &v, const QString &p) { t.sequence = readRecordField(v, p, false); }},
                });
        t.partitions = partitions.value_or(-1);
    }

    void readConsumer(const QString &name, const YAML::Node &keyNode, const YAML::Node &value,
                      const QString &path, ConsumerPolicy &c)
    {
        c.name = name;
        c.line = keyNode.Mark().is_null() ? 0 : keyNode.Mark().line + 1;
        const Field duplicateHandling{"duplicateHandling"_L1, text(c.duplicateHandling)};
        const Field externalIdempotency{"externalProviderIdempotency"_L1,
                                        boolean(c.externalProviderIdempotency)};
        const Field manualReview{"manualReviewRequired"_L1, boolean(c.manualReviewRequired)};
        YAML::Node inboxNode;
        YAML::Node outboxNode;
        OutboxMapping outbox;
        bool outboxRead = false;
        readMap(
            value, path,
            {
                {"topics"_L1,
                 [this, &c](const YAML::Node &v, const QString &p) { readTopicList(v, p, c.topics); }},
                {"idempotency"_L1,
                 [&](const YAML::Node &v, const QString &p) {
                     readMap(v, p,
                             {{"strategy"_L1, text(c.idempotencyStrategy)},
                              duplicateHandling,
                              externalIdempotency});
                 }},
                duplicateHandling,
                externalIdempotency,
                {"offsetCommit"_L1,
                 [&](const YAML::Node &v, const QString &p) {
                     readMap(v, p, {{"timing"_L1, text(c.offsetCommitTiming)}});
                 }},
                {"retry"_L1,
                 [&](const YAML::Node &v, const QString &p) {
                     readMap(v, p,
                             {{"maxAttempts"_L1, integer(c.retryMaxAttempts, 0)},
                              {"backoff"_L1, text(c.retryBackoff)}});
                 }},
                {"dlq"_L1,
                 [&](const YAML::Node &v, const QString &p) {
                     readMap(v, p,
                             {{"enabled"_L1, boolean(c.dlqEnabled)},
                              {"topic"_L1, text(c.dlqTopic)},
                              {"owner"_L1, text(c.dlqOwner)},
                              {"critical"_L1, boolean(c.dlqCritical)},
                              {"alert"_L1,
                               [&](const YAML::Node &a, const QString &ap) {
                                   readMap(a, ap,
                                           {{"count"_L1, integer(c.dlqAlertCount, 1)},
                                            {"windowMinutes"_L1, integer(c.dlqAlertWindowMinutes, 1)}});
                               }},
                              manualReview});
                 }},
                manualReview,
                {"poison"_L1,
                 [&](const YAML::Node &v, const QString &p) {
                     readMap(v, p, {{"maxAttemptsBeforePark"_L1, integer(c.poisonMaxAttemptsBeforePark, 0)}});
                 }},
                {"lagSlo"_L1,
                 [&](const YAML::Node &v, const QString &p) {
                     readMap(v, p, {{"maxLagSeconds"_L1, integer(c.lagSloMaxLagSeconds, 0)}});
                 }},
                {"replay"_L1,
                 [&](const YAML::Node &v, const QString &p) {
                     readMap(v, p, {{"allowed"_L1, replay(c.replayAllowedText, c.replayAllowed)}});
                 }},
                {"idempotencyKey"_L1,
                 [&](const YAML::Node &v, const QString &p) {
                     c.idempotencyKey = readRecordField(v, p, true);
                     c.idempotencyKeySource = c.idempotencyKey.describe();
                 }},
                {"isolationLevel"_L1,
                 [&](const YAML::Node &v, const QString &p) {
                     text(c.isolationLevel)(v, p);
                     if (!c.isolationLevel.isEmpty() && c.isolationLevel != "read_committed"_L1
                         && c.isolationLevel != "read_uncommitted"_L1) {
                         warning(v, u"%1: %2 is neither read_committed nor read_uncommitted; read as "
                                    u"read_uncommitted"_s.arg(p, quoted(v.Scalar())));
                         c.isolationLevel.clear();
                     }
                 }},
                {"review"_L1,
                 [&](const YAML::Node &v, const QString &p) {
                     if (!expectMap(v, p))
                         return;
                     forEachEntry(v, p, [&](const QString &key, const YAML::Node &, const YAML::Node &answer) {
                         QString said;
                         text(said)(answer, p + u'.' + key);
                         if (!said.isEmpty())
                             c.review.append({key, said});
                     });
                 }},
                {"inbox"_L1, [&](const YAML::Node &v, const QString &p) { inboxNode = v; readInbox(v, p, c); }},
                {"outbox"_L1,
                 [&](const YAML::Node &v, const QString &p) {
                     outboxNode = v;
                     outboxRead = readOutbox(v, p, outbox);
                 }},
            });
        if (outboxRead && c.inbox)
            c.inbox->outbox = outbox;
        else if (outboxRead)
            warning(outboxNode, u"%1.outbox: an outbox is watched beside the consumer's inbox; this consumer "
                                u"has no inbox mapping (ignored)"_s.arg(path));
        if (c.inbox && c.retryMaxAttempts && *c.retryMaxAttempts > 0)
            c.inbox->exhaustedAfterAttempts = *c.retryMaxAttempts;
        if (c.inbox) {
            const QString problem = c.inbox->validate();
            if (!problem.isEmpty()) {
                error(inboxNode, u"%1.inbox: %2"_s.arg(path, problem));
                c.inbox.reset();
            }
        }
    }

    // `inbox:` of a consumer (ARCHITECTURE.md, Contracts: Inbox mapping). Problems that make the mapping
    // unusable are errors at the key or value that causes them, and the mapping is dropped: a half-read
    // mapping would count the wrong rows.
    void readInbox(const YAML::Node &value, const QString &path, ConsumerPolicy &c)
    {
        if (value.IsNull())
            return;
        if (!expectMap(value, path))
            return;
        InboxMapping m;
        m.name = c.name;
        m.consumerValue = c.name;
        bool usable = true;
        const auto errorCount = [this] {
            return std::count_if(diagnostics.cbegin(), diagnostics.cend(),
                                 [](const PolicyDiagnostic &d) { return d.severity == PolicyDiagnostic::Error; });
        };
        const auto errorsBefore = errorCount();
        std::optional<int> stuck;
        QString table;
        YAML::Node tableNode;
        readMap(value, path,
                {
                    {"database"_L1, text(m.database)},
                    {"table"_L1,
                     [&](const YAML::Node &v, const QString &p) {
                         tableNode = v;
                         if (v.IsScalar())
                             table = fromYaml(v.Scalar()); // blanks may be part of a quoted name
                         else
                             text(table)(v, p);
                     }},
                    {"columns"_L1, [&](const YAML::Node &v, const QString &p) { usable &= readColumns(v, p, m); }},
                    {"consumerValue"_L1, text(m.consumerValue)},
                    {"statuses"_L1, [&](const YAML::Node &v, const QString &p) { usable &= readStatuses(v, p, m); }},
                    {"skippedStatus"_L1, text(m.skippedStatus)},
                    {"releaseTo"_L1, text(m.releaseTo)},
                    {"stuckAfterSeconds"_L1, integer(stuck, 1)},
                    {"retakes"_L1, [&](const YAML::Node &v, const QString &p) { usable &= readRetakes(v, p, m); }},
                });
        if (stuck)
            m.stuckAfterSeconds = *stuck;
        if (table.trimmed().isEmpty()) {
            error(value, u"%1: no table (table: schema.name)"_s.arg(path));
            return;
        }
        QString problem;
        InboxMapping::parseTableText(table, &m.schema, &m.table, &problem);
        if (!problem.isEmpty()) {
            error(tableNode, u"%1.table: %2"_s.arg(path, problem));
            return;
        }
        if (m.statuses.isEmpty()) {
            error(value, u"%1: no statuses (statuses: {word: state, ...}); without them every row is "
                         u"Unknown"_s.arg(path));
            return;
        }
        if (!m.skippedStatus.isEmpty()) {
            const InboxState was = m.stateOf(m.skippedStatus);
            if (m.statuses.contains(m.skippedStatus) && was != InboxState::Skipped) {
                error(value, u"%1.skippedStatus: \u201c%2\u201d is mapped to %3 in statuses, not skipped"_s.arg(
                                 path, m.skippedStatus, InboxMapping::stateKey(was)));
                return;
            }
            m.statuses.insert(m.skippedStatus, InboxState::Skipped);
        }
        if (usable && errorCount() == errorsBefore) // any error inside the block makes it unusable
            c.inbox = m;
    }

    bool readColumns(const YAML::Node &value, const QString &path, InboxMapping &m)
    {
        if (!expectMap(value, path))
            return false;
        readMap(value, path,
                {
                    {"messageId"_L1, text(m.messageIdColumn)},
                    {"status"_L1, text(m.statusColumn)},
                    {"updated"_L1, text(m.updatedColumn)},
                    {"firstSeen"_L1, text(m.firstSeenColumn)},
                    {"attempts"_L1, text(m.attemptsColumn)},
                    {"error"_L1, text(m.errorColumn)},
                    {"consumer"_L1, text(m.consumerColumn)},
                    {"topic"_L1, text(m.topicColumn)},
                    {"payload"_L1, text(m.payloadColumn)},
                });
        bool ok = true;
        const std::pair<const char *, const QString *> required[] = {
            {"messageId", &m.messageIdColumn}, {"status", &m.statusColumn}, {"updated", &m.updatedColumn}};
        for (const auto &[key, column] : required) {
            if (column->isEmpty()) {
                error(value, u"%1: the %2 column is required"_s.arg(path, QLatin1StringView(key)));
                ok = false;
            }
        }
        return ok;
    }

    bool readStatuses(const YAML::Node &value, const QString &path, InboxMapping &m)
    {
        if (!expectMap(value, path))
            return false;
        bool ok = true;
        forEachEntry(value, path, [&](const QString &word, const YAML::Node &, const YAML::Node &stateNode) {
            InboxState state = InboxState::Unknown;
            if (!stateNode.IsScalar()
                || !InboxMapping::stateFromKey(fromYaml(stateNode.Scalar()).trimmed(), &state)) {
                error(stateNode, u"%1.%2: expected one of %3, got %4"_s.arg(path, word, stateKeys(),
                                                                            kindName(stateNode)));
                ok = false;
                return;
            }
            m.statuses.insert(word, state);
        });
        return ok;
    }

    bool readRetakes(const YAML::Node &value, const QString &path, InboxMapping &m)
    {
        if (value.IsNull())
            return true;
        std::vector<YAML::Node> items; // a single state may be written without the brackets
        if (value.IsScalar())
            items.push_back(value);
        else if (value.IsSequence())
            for (const auto &item : value)
                items.push_back(item);
        else {
            error(value, u"%1: expected a list of states, got %2"_s.arg(path, kindName(value)));
            return false;
        }
        QList<InboxState> states;
        for (const YAML::Node &item : items) {
            InboxState state = InboxState::Unknown;
            if (!item.IsScalar() || !InboxMapping::stateFromKey(fromYaml(item.Scalar()).trimmed(), &state)) {
                error(item, u"%1: expected one of %2, got %3"_s.arg(path, stateKeys(), kindName(item)));
                return false;
            }
            if (!states.contains(state))
                states.append(state);
        }
        m.retakes = states;
        return true;
    }

    bool readOutbox(const YAML::Node &value, const QString &path, OutboxMapping &o)
    {
        if (value.IsNull() || !expectMap(value, path))
            return false;
        QString table;
        readMap(value, path,
                {
                    {"table"_L1, text(table)},
                    {"status"_L1, text(o.statusColumn)},
                    {"created"_L1, text(o.createdColumn)},
                    {"pending"_L1, text(o.pendingStatus)},
                });
        bool ok = true;
        const std::pair<const char *, const QString *> required[] = {
            {"table", &table}, {"status", &o.statusColumn}, {"created", &o.createdColumn}, {"pending", &o.pendingStatus}};
        for (const auto &[key, field] : required) {
            if (field->isEmpty()) {
                error(value, u"%1: %2 is required"_s.arg(path, QLatin1StringView(key)));
                ok = false;
            }
        }
        if (!ok)
            return false;
        QString problem;
        InboxMapping::parseTableText(table, &o.schema, &o.table, &problem);
        if (!problem.isEmpty()) {
            error(value, u"%1.table: %2"_s.arg(path, problem));
            return false;
        }
        return true;
    }

    static QString stateKeys()
    {
        QStringList keys;
        for (int s = 0; s < int(InboxState::Unknown); ++s)
            keys << InboxMapping::stateKey(InboxState(s));
        return keys.join(u", "_s);
    }

    // A list of names, or a single name.
    void readTopicList(const YAML::Node &value, const QString &path, QStringList &out)
    {
        if (value.IsNull())
            return;
        if (value.IsScalar()) {
            out = {fromYaml(value.Scalar()).trimmed()};
            return;
        }
        if (!value.IsSequence()) {
            error(value, u"%1: expected a list of topic names, got %2"_s.arg(path, kindName(value)));
            return;
        }
        out.clear();
        for (const auto &item : value) {
            if (item.IsScalar() && !item.Scalar().empty())
                out.append(fromYaml(item.Scalar()).trimmed());
            else
                error(item, u"%1: expected a topic name, got %2"_s.arg(path, kindName(item)));
        }
    }

    void readDocument(const YAML::Node &root, DeliveryPolicy &policy)
    {
        if (!root.IsMap()) {
            if (root.IsNull())
                diagnostics.append(
                    {PolicyDiagnostic::Error, 1, 1, u"the policy is empty: no deliverySemantics"_s});
            else
                error(root,
                      u"expected a mapping with deliverySemantics at the top, got %1"_s.arg(kindName(root)));
            return;
        }
        bool found = false;
        forEachEntry(root, u"the top level"_s,
                     [&](const QString &key, const YAML::Node &keyNode, const YAML::Node &value) {
                         if (key == "masking"_L1) {
                             readMasking(value, policy);
                             return;
                         }
                         if (key != "deliverySemantics"_L1) {
                             warning(keyNode,
                                     u"unknown top-level key %1 (ignored)"_s.arg(quoted(keyNode.Scalar())));
                             return;
                         }
                         found = true;
                         readSemantics(keyNode, value, policy);
                     });
        if (!found)
            diagnostics.append({PolicyDiagnostic::Error, 1, 1, u"no deliverySemantics section"_s});
    }

    // masking: a list of {topic, fields, headers, key}.
    void readMasking(const YAML::Node &value, DeliveryPolicy &policy)
    {
        if (value.IsNull())
            return;
        if (!value.IsSequence()) {
            error(value, u"masking: expected a list of {topic, fields, headers, key}, got %1"_s.arg(kindName(value)));
            return;
        }
        int index = 0;
        for (const auto &item : value) {
            const QString path = u"masking[%1]"_s.arg(index++);
            MaskRule rule;
            rule.line = item.Mark().line + 1;
            auto strings = [&](QStringList &out) {
                return [&](const YAML::Node &v, const QString &p) {
                    if (v.IsScalar()) {
                        out = {fromYaml(v.Scalar()).trimmed()};
                    } else if (v.IsSequence()) {
                        for (const auto &s : v) {
                            if (s.IsScalar() && !s.Scalar().empty())
                                out.append(fromYaml(s.Scalar()).trimmed());
                            else
                                error(s, u"%1: expected a name or path, got %2"_s.arg(p, kindName(s)));
                        }
                    } else if (!v.IsNull()) {
                        error(v, u"%1: expected a list, got %2"_s.arg(p, kindName(v)));
                    }
                };
            };
            readMap(item, path,
                    {
                        {"topic"_L1,
                         [&](const YAML::Node &v, const QString &) {
                             if (v.IsScalar())
                                 rule.topic = fromYaml(v.Scalar()).trimmed();
                         }},
                        {"fields"_L1, strings(rule.fields)},
                        {"headers"_L1, strings(rule.headers)},
                        {"key"_L1,
                         [&](const YAML::Node &v, const QString &p) {
                             const QString text = v.IsScalar() ? fromYaml(v.Scalar()).trimmed().toLower() : QString();
                             if (text == u"true"_s || text == u"yes"_s)
                                 rule.key = true;
                             else if (text != u"false"_s && text != u"no"_s)
                                 error(v, u"%1: expected true or false"_s.arg(p));
                         }},
                    });
            for (const QString &f : rule.fields) {
                if (!f.startsWith(u"$"_s))
                    error(item, u"%1: field path %2 does not start with $"_s.arg(path, f));
            }
            if (rule.topic.isEmpty())
                error(item, u"%1: a masking rule names no topic"_s.arg(path));
            else
                policy.masking.append(rule);
        }
    }

    void readSemantics(const YAML::Node &keyNode, const YAML::Node &value, DeliveryPolicy &policy)
    {
        const QString path = u"deliverySemantics"_s;
        readMap(value, path,
                {
                    {"topics"_L1,
                     [&](const YAML::Node &v, const QString &p) {
                         if (!expectMap(v, p))
                             return;
                         forEachEntry(v, p,
                                      [&](const QString &name, const YAML::Node &k, const YAML::Node &body) {
                                          TopicPolicy t;
                                          readTopic(name, k, body, p + u'.' + name, t);
                                          policy.topics.append(std::move(t));
                                      });
                     }},
                    {"consumers"_L1,
                     [&](const YAML::Node &v, const QString &p) {
                         if (!expectMap(v, p))
                             return;
                         forEachEntry(v, p,
                                      [&](const QString &name, const YAML::Node &k, const YAML::Node &body) {
                                          ConsumerPolicy c;
                                          readConsumer(name, k, body, p + u'.' + name, c);
                                          policy.consumers.append(std::move(c));
                                      });
                     }},
                });
        if (policy.isEmpty())
            warning(keyNode, u"deliverySemantics states no topics and no consumers"_s);
    }
};

PolicyDiagnostic unpositioned(const QString &message)
{
    return {PolicyDiagnostic::Error, 0, 0, message};
}

// yaml-cpp 0.7 never consumes a stray token such as a leading ',' (jbeder/yaml-cpp#1040): every further
// HandleNextDocument yields another empty document at the same place, so YAML::LoadAll allocates until
// the process dies. Walking the event stream first, and calling a document that starts where the previous
// one did "stuck", turns that into an error; YAML::Load then only ever builds the first document.
struct DocumentScan {
    int documents = 0;
    YAML::Mark secondStart = YAML::Mark::null_mark();
    bool stuck = false;
    YAML::Mark stuckAt = YAML::Mark::null_mark();
};

class DocumentStarts final : public YAML::EventHandler {
public:
    YAML::Mark last = YAML::Mark::null_mark();
    YAML::Mark current = YAML::Mark::null_mark();

    void OnDocumentStart(const YAML::Mark &mark) override
    {
        last = current;
        current = mark;
    }
    void OnDocumentEnd() override {}
    void OnNull(const YAML::Mark &, YAML::anchor_t) override {}
    void OnAlias(const YAML::Mark &, YAML::anchor_t) override {}
    void OnScalar(const YAML::Mark &, const std::string &, YAML::anchor_t, const std::string &) override {}
    void OnSequenceStart(const YAML::Mark &, const std::string &, YAML::anchor_t,
                         YAML::EmitterStyle::value) override
    {
    }
    void OnSequenceEnd() override {}
    void OnMapStart(const YAML::Mark &, const std::string &, YAML::anchor_t,
                    YAML::EmitterStyle::value) override
    {
    }
    void OnMapEnd() override {}
};

DocumentScan scanDocuments(const std::string &text)
{
    std::istringstream in(text);
    YAML::Parser parser(in);
    DocumentStarts starts;
    DocumentScan scan;
    while (parser.HandleNextDocument(starts)) {
        if (scan.documents > 0 && starts.current.pos == starts.last.pos) {
            scan.stuck = true;
            scan.stuckAt = starts.current;
            return scan;
        }
        if (++scan.documents == 2)
            scan.secondStart = starts.current;
    }
    return scan;
}

} // namespace

bool PolicyLoadResult::ok() const
{
    return errors().isEmpty();
}

QList<PolicyDiagnostic> PolicyLoadResult::errors() const
{
    QList<PolicyDiagnostic> out;
    for (const PolicyDiagnostic &d : diagnostics) {
        if (d.severity == PolicyDiagnostic::Error)
            out.append(d);
    }
    return out;
}

QList<PolicyDiagnostic> PolicyLoadResult::warnings() const
{
    QList<PolicyDiagnostic> out;
    for (const PolicyDiagnostic &d : diagnostics) {
        if (d.severity == PolicyDiagnostic::Warning)
            out.append(d);
    }
    return out;
}

QStringList PolicyLoadResult::messages() const
{
    QStringList out;
    out.reserve(diagnostics.size());
    for (const PolicyDiagnostic &d : diagnostics)
        out.append(formatDiagnostic(sourceName, d));
    return out;
}

QString formatDiagnostic(const QString &sourceName, const PolicyDiagnostic &d)
{
    QString where = sourceName;
    if (d.line > 0) {
        where += u':' + QString::number(d.line);
        if (d.column > 0)
            where += u':' + QString::number(d.column);
    }
    const QLatin1StringView severity = d.severity == PolicyDiagnostic::Error ? "error"_L1 : "warning"_L1;
    if (where.isEmpty())
        return severity + ": "_L1 + d.message;
    return where + ": "_L1 + severity + ": "_L1 + d.message;
}

PolicyLoadResult loadPolicy(const QByteArray &yaml, const QString &sourceName)
{
    PolicyLoadResult result;
    result.sourceName = sourceName;
    if (yaml.size() > MaxPolicyBytes) {
        result.diagnostics.append(unpositioned(
            u"the policy is %1 bytes, more than the %2 bytes a policy may have"_s.arg(yaml.size())
                .arg(MaxPolicyBytes)));
        return result;
    }
    PolicyReader reader;
    // yaml-cpp reports syntax errors, over-deep nesting and conversion failures as exceptions; anything else
    // (allocation failure on hostile input) is caught too: a bad file must never take the console down.
    try {
        const std::string text(yaml.constData(), size_t(yaml.size()));
        const DocumentScan scan = scanDocuments(text);
        if (scan.stuck) {
            const QString token = scan.stuckAt.pos >= 0 && size_t(scan.stuckAt.pos) < text.size()
                                      ? quoted(text.substr(size_t(scan.stuckAt.pos), 1))
                                      : u"token"_s;
            reader.add(PolicyDiagnostic::Error, scan.stuckAt, u"invalid YAML: unexpected %1"_s.arg(token));
        } else if (scan.documents == 0) {
            reader.diagnostics.append(
                {PolicyDiagnostic::Error, 1, 1, u"the policy is empty: no deliverySemantics"_s});
        } else {
            reader.readDocument(YAML::Load(text), result.policy);
            if (scan.documents > 1)
                reader.add(
                    PolicyDiagnostic::Warning, scan.secondStart,
                    u"only the first YAML document is read; %1 more ignored"_s.arg(scan.documents - 1));
        }
    } catch (const YAML::DeepRecursion &e) {
        reader.add(PolicyDiagnostic::Error, e.mark, u"invalid YAML: nesting is too deep"_s);
    } catch (const YAML::Exception &e) {
        reader.add(PolicyDiagnostic::Error, e.mark, u"invalid YAML: %1"_s.arg(fromYaml(e.msg)));
    } catch (const std::exception &e) {
        reader.diagnostics.append(
            unpositioned(u"could not read the policy: %1"_s.arg(QString::fromLocal8Bit(e.what()))));
    } catch (...) {
        reader.diagnostics.append(unpositioned(u"could not read the policy: unexpected failure"_s));
    }
    result.diagnostics = std::move(reader.diagnostics);
    return result;
}

PolicyLoadResult loadPolicyFile(const QString &path)
{
    if (path.startsWith(u':'))
        initServicesResources();
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        PolicyLoadResult result;
        result.sourceName = path;
        result.diagnostics.append(unpositioned(u"cannot open the policy: %1"_s.arg(file.errorString())));
        return result;
    }
    // Read one byte past the limit so loadPolicy reports an oversized file without reading all of it.
    const QByteArray bytes = file.read(MaxPolicyBytes + 1);
    if (file.error() != QFileDevice::NoError) {
        PolicyLoadResult result;
        result.sourceName = path;
        result.diagnostics.append(unpositioned(u"cannot read the policy: %1"_s.arg(file.errorString())));
        return result;
    }
    return loadPolicy(bytes, path);
}

QString demoPolicyPath()
{
    initServicesResources();
    return u":/berth/policy/demo-policy.yaml"_s;
}
