// berth account: what happened to every record of a consumer's window (ARCHITECTURE.md, Data flows:
// Delivery accounting), as JSON lines a deploy pipeline can check.
#include "commands.h"
#include "connectionoptions.h"

#include "services/accounting/accountingjson.h"
#include "services/accounting/deliveryaccountant.h"

#include <QCommandLineParser>
#include <QFile>
#include <QJsonDocument>

#include <atomic>
#include <csignal>

using namespace Qt::StringLiterals;

namespace {
std::atomic_bool g_stopAccounting = false;

void onAccountInterrupt(int)
{
    g_stopAccounting = true; // the run checks it between records and ends cleanly
}
} // namespace

namespace Commands {
int account(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        u"Accounts for every record of a consumer group's window of a topic: processed, duplicate, in "
        u"flight, "
        u"dead-lettered, parked, skipped, not consumed, aborted or unaccounted (possible loss). Exit 0 when "
        u"nothing is unaccounted, 1 when something is, 2 on error."_s);
    parser.addHelpOption();
    ConnectionOptions::add(parser);
    parser.addOption({u"topic"_s, u"The topic the group consumes."_s, u"name"_s});
    parser.addOption({u"from"_s,
                      u"Start of the window: beginning, end, end-N, offset:N, time:<ISO-8601 or epoch ms>."_s,
                      u"position"_s, u"beginning"_s});
    parser.addOption({u"to"_s,
                      u"End of the window, not included (same forms; default: the end offsets at start)."_s,
                      u"position"_s});
    parser.addOption({u"dlq"_s,
                      u"A DLQ topic of the group (repeatable; default: the policy's, else "
                      u"<topic>-dlt, <topic>.DLT, error.<topic>.<group> where they exist)."_s,
                      u"topic"_s});
    parser.addOption(
        {u"json"_s, u"JSON lines: one per record that is not processed or not consumed, then a summary."_s});
    parser.addOption({u"timeout"_s, u"Per-request timeout in milliseconds."_s, u"ms"_s, u"10000"_s});
    parser.process(arguments);

    QFile err;
    err.open(stderr, QIODevice::WriteOnly | QIODevice::Unbuffered);
    QFile out;
    out.open(stdout, QIODevice::WriteOnly);
    const auto fail = [&](const QString &why) {
        err.write("berth account: " + why.toUtf8() + '\n');
        return 2;
    };
    const ConnectionProfile profile = ConnectionOptions::read(parser);
    const QStringList groups = parser.values(u"group"_s);
    const QString topic = parser.value(u"topic"_s);
    if (KafkaConfig::bootstrapOf(profile.cluster).isEmpty() || groups.size() != 1 || topic.isEmpty())
        return fail(u"give --bootstrap (or a profile), one --group and --topic"_s);
    DeliveryPolicy policy;
    InboxMappingSet inboxes;
    QString error;
    if (!ConnectionOptions::readPolicy(profile, &policy, &inboxes, &error))
        return fail(error);
    AccountingRequest request = AccountingRequest::fromPolicy(policy, inboxes, groups.front(), topic);
    request.cluster = profile.cluster;
    request.from = parser.value(u"from"_s);
    request.to = parser.value(u"to"_s);
    if (parser.isSet(u"dlq"_s))
        request.dlqTopics = parser.values(u"dlq"_s);
    request.timeoutMs = parser.value(u"timeout"_s).toInt();
    if (request.timeoutMs <= 0)
        return fail(u"--timeout needs a positive number of milliseconds"_s);

    std::signal(SIGINT, onAccountInterrupt);
    std::signal(SIGTERM, onAccountInterrupt);
    AccountingHooks hooks;
    hooks.cancelled = [] { return g_stopAccounting.load(); };
    const AccountingResultPtr result = DeliveryAccountant::run(request, hooks);
    for (const QString &message : result->messages)
        err.write("berth account: " + message.toUtf8() + '\n');
    if (!result->error.isEmpty())
        return fail(result->error);
    if (result->cancelled)
        return fail(u"interrupted; nothing was decided"_s);

    const bool json = parser.isSet(u"json"_s);
    if (json) {
        QByteArray chunk;
        for (const AccountedRecord &r : result->records) {
            if (r.cls == AccountClass::Processed && !(r.notes & ~quint16(AccountNote::Unverified)))
                continue;
            if (r.cls == AccountClass::NotConsumed && !r.notes)
                continue;
            chunk += QJsonDocument(AccountingJson::record(*result, r)).toJson(QJsonDocument::Compact) + '\n';
            if (chunk.size() > (1 << 16)) {
                out.write(chunk);
                chunk.clear();
            }
        }
        for (const SequenceFinding &f : result->sequence)
            chunk += QJsonDocument(AccountingJson::finding(*result, f)).toJson(QJsonDocument::Compact) + '\n';
        QJsonObject summary = AccountingJson::summary(*result);
        if (const ConsumerPolicy *consumer = policy.consumer(request.group))
            summary.insert(u"semantics"_s, AccountingJson::semantics(DeliverySemantics::classify(
                                               *consumer, policy.topic(request.topic), result.get())));
        chunk += QJsonDocument(summary).toJson(QJsonDocument::Compact) + '\n';
        out.write(chunk);
    } else {
        out.write(AccountingJson::summaryText(*result).toUtf8());
    }
    out.flush();
    return result->count(AccountClass::Unaccounted) > 0 ? 1 : 0;
}
} // namespace Commands
