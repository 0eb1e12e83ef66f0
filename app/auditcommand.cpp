#include "commands.h"
#include "replaycommandsupport.h"

#include "services/audit/auditchain.h"
#include "services/audit/auditstore.h"

#include <QCommandLineParser>
#include <QTextStream>

using namespace Qt::StringLiterals;
using namespace ReplayCommandSupport;

namespace {
int verify(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        u"Recomputes the audit log's hash chain and reports the first broken row. "
        u"Record the last seq and hash it prints: a later verify can be compared "
        u"with them (a chain alone cannot show rows cut from its end)."_s);
    addCommonOptions(parser, false);
    parser.process(arguments);
    Output out(parser);
    Connections c;
    QString error;
    if (!c.open(parser, false, false, &error))
        return out.fail(ExitError, error);
    const ChainVerification v = AuditChain::verify(c.audit);
    const QJsonObject json{{u"completed"_s, v.completed},
                           {u"ok"_s, v.ok},
                           {u"checkedRows"_s, v.checkedRows},
                           {u"firstBrokenSeq"_s, v.firstBrokenSeq},
                           {u"problem"_s, v.problem},
                           {u"lastSeq"_s, v.lastSeq},
                           {u"lastHash"_s, QString::fromLatin1(v.lastHash.toHex())},
                           {u"elapsedMs"_s, v.elapsedMs}};
    if (!v.completed)
        return out.fail(ExitError, u"could not verify: "_s + v.error, json);
    if (!v.ok)
        return out.fail(ExitRefused,
                        u"the audit chain is broken at seq "_s + QString::number(v.firstBrokenSeq) + u": "_s
                            + v.problem,
                        json);
    // The verification itself is an audit event, so the log shows when it was last checked and by whom.
    AuditStore store(c.audit);
    store.appendEvent(u"chain.verified"_s, 0,
                      {{u"checkedRows"_s, v.checkedRows},
                       {u"lastSeq"_s, v.lastSeq},
                       {u"lastHash"_s, QString::fromLatin1(v.lastHash.toHex())}},
                      &error);
    out.done(json, u"Audit chain intact: "_s + QString::number(v.checkedRows) + u" rows, last seq "_s
                       + QString::number(v.lastSeq) + u", hash "_s + QString::fromLatin1(v.lastHash.toHex())
                       + u'\n');
    return ExitOk;
}
} // namespace

namespace Commands {
int audit(const QStringList &arguments)
{
    QStringList args = arguments;
    const QString verb = args.size() > 1 ? args.takeAt(1) : QString();
    if (verb == u"verify"_s)
        return verify(args);
    QTextStream(stderr) << "Usage: berth audit verify --db CONNINFO [--json]\n";
    return verb.isEmpty() || verb == u"--help"_s ? ExitOk : ExitUsage;
}
} // namespace Commands
