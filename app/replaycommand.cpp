#include "commands.h"

#include "commandschemas.h"
#include "replaycommandsupport.h"
#include "services/support/profilesecrets.h"

#include "services/audit/auditstore.h"
#include "services/inbox/pgsession.h"
#include "services/payload/payloadmask.h"
#include "services/policy/policyloader.h"
#include "services/remediation/intentjournal.h"
#include "services/remediation/offsetresetexecutor.h"
#include "services/remediation/offsetresetplanner.h"
#include "services/remediation/replayexecutor.h"
#include "services/remediation/replayrunbook.h"
#include "services/remediation/replayverifier.h"
#include "services/remediation/requestbuilder.h"
#include "services/remediation/requestmask.h"

#include <QCommandLineParser>
#include <QFile>
#include <QJsonArray>

#include <csignal>

using namespace Qt::StringLiterals;
using namespace ReplayCommandSupport;

namespace {
ReplayControl *g_control = nullptr;
constexpr qsizetype MaxListedProblems = 100; // status lists at most this many unfinished items

void onReplayInterrupt(int)
{
    // Async-signal-safe: an atomic store. The executor stops at the next record and leaves the request
    // executing; `execute` again resumes it (reconciling first).
    if (g_control)
        g_control->pause();
}

// "TOPIC/PARTITION/OFFSET" or, with a range, "TOPIC/PARTITION/FROM-TO" (TO exclusive). The topic may itself
// contain slashes: partition and offset are the last two parts.
bool parseSelection(const QString &text, bool range, QList<DlqSelection> *out, QString *error)
{
    const qsizetype last = text.lastIndexOf(u'/');
    const qsizetype middle = last > 0 ? text.lastIndexOf(u'/', last - 1) : -1;
    bool okPartition = false;
    const int partition = middle > 0 ? text.mid(middle + 1, last - middle - 1).toInt(&okPartition) : -1;
    const QString topic = middle > 0 ? text.left(middle) : QString();
    const QString offsets = text.mid(last + 1);
    qint64 from = -1;
    qint64 to = -1;
    bool ok = okPartition && partition >= 0 && !topic.isEmpty();
    if (ok && range) {
        const QStringList parts = offsets.split(u'-');
        bool a = false;
        bool b = false;
        if (parts.size() == 2) {
            from = parts.at(0).toLongLong(&a);
            to = parts.at(1).toLongLong(&b);
        }
        ok = a && b && from >= 0 && to > from;
    } else if (ok) {
        from = offsets.toLongLong(&ok);
        to = from + 1;
        ok = ok && from >= 0;
    }
    if (!ok) {
        *error =
            u"cannot read "_s + text
            + (range ? u" (expected TOPIC/PARTITION/FROM-TO)"_s : u" (expected TOPIC/PARTITION/OFFSET)"_s);
        return false;
    }
    for (qint64 o = from; o < to; ++o)
        out->append({topic, partition, o});
    return true;
}

int request(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        u"Pins the selected DLQ records or inbox rows, runs the dry run and files a "
        u"remediation request as the database role you log in as."_s);
    addCommonOptions(parser, true);
    parser.addOption(
        {u"action"_s, u"replay (default), edit_replay, skip or delete."_s, u"action"_s, u"replay"_s});
    parser.addOption({u"select"_s, u"A DLQ record, TOPIC/PARTITION/OFFSET (repeatable)."_s, u"record"_s});
    parser.addOption(
        {u"range"_s, u"DLQ records TOPIC/PARTITION/FROM-TO, TO exclusive (repeatable)."_s, u"range"_s});
    parser.addOption({u"inbox-row"_s,
                      u"An inbox row MAPPING:MESSAGE-ID[:CONSUMER] (skip, delete; repeatable). "
                      u"MAPPING: the consumer whose inbox mapping --policy states."_s,
                      u"row"_s});
    parser.addOption(
        {u"edit"_s,
         u"edit_replay: N=FILE, the new payload of the N-th selected record (1-based): its display "
         u"JSON, encoded as the original was (Avro, Protobuf, JSON Schema) with --schema-registry "
         u"or --schema."_s,
         u"n=file"_s});
    parser.addOption(
        {u"edit-schema-id"_s,
         u"edit_replay: N=ID, encode the N-th record's edit with schema ID, a newer version of its "
         u"subject in --schema-registry (default: the record's own schema)."_s,
         u"n=id"_s});
    CommandSchemas::addOptions(parser);
    parser.addOption(
        {u"destination"_s, u"Replay into this topic instead of each record's original topic."_s, u"topic"_s});
    parser.addOption({u"rate"_s, u"Messages per second while executing (0: unlimited)."_s, u"n"_s, u"0"_s});
    parser.addOption({u"reason-code"_s, u"Short reason code (e.g. poison-fixed)."_s, u"code"_s});
    parser.addOption({u"reason"_s, u"Why, in words."_s, u"text"_s});
    parser.addOption({u"ticket"_s, u"Ticket id."_s, u"id"_s});
    parser.addOption({u"expires-in"_s, u"Minutes until the request expires (default 1440)."_s, u"minutes"_s});
    parser.addOption(
        {u"release"_s,
         u"Release and replay: each item's parked or failed inbox row is released (the mapping's "
         u"releaseTo) right before its record is produced."_s});
    parser.addOption({u"reclaim"_s,
                      u"Reclaim stuck rows: --consumer's inbox rows in progress for longer than --older-than "
                      u"are released for retry and their records replayed from its topic."_s});
    parser.addOption(
        {u"consumer"_s, u"--reclaim: the policy consumer (its group and inbox mapping)."_s, u"name"_s});
    parser.addOption({u"older-than"_s,
                      u"--reclaim: rows not updated for this long (30m, 2h, 300s; default: the mapping's "
                      u"stuckAfterSeconds)."_s,
                      u"duration"_s});
    parser.addOption({u"topic"_s,
                      u"--reclaim: the topic whose records are replayed (default: the consumer's one topic "
                      u"in the policy). --reset-offsets: the topic whose offsets move."_s,
                      u"topic"_s});
    parser.addOption({u"reset-offsets"_s,
                      u"Offset reset: move --group's committed offsets on --topic --to a position; executed "
                      u"only while the group has no active member."_s});
    parser.addOption({u"group"_s, u"--reset-offsets: the consumer group."_s, u"group"_s});
    parser.addOption({u"to"_s,
                      u"--reset-offsets: earliest, latest, time:<ISO-8601 or epoch ms>, shift:N (negative: "
                      u"back) or PARTITION=OFFSET,..."_s,
                      u"position"_s});
    parser.process(arguments);
    Output out(parser);

    RequestDraft draft;
    const std::optional<RemediationAction> action = AuditText::actionFromName(parser.value(u"action"_s));
    if (!action)
        return out.fail(ExitUsage, u"unknown action "_s + parser.value(u"action"_s));
    draft.action = *action;
    QString error;
    for (const QString &s : parser.values(u"select"_s)) {
        if (!parseSelection(s, false, &draft.selection, &error))
            return out.fail(ExitUsage, error);
    }
    for (const QString &s : parser.values(u"range"_s)) {
        if (!parseSelection(s, true, &draft.selection, &error))
            return out.fail(ExitUsage, error);
    }
    for (const QString &row : parser.values(u"inbox-row"_s)) {
        const QStringList parts = row.split(u':');
        if (parts.size() < 2 || parts.size() > 3 || parts.at(1).isEmpty())
            return out.fail(ExitUsage, u"cannot read --inbox-row "_s + row
                                           + u" (expected MAPPING:MESSAGE-ID[:CONSUMER])"_s);
        draft.inboxRows.append(inboxRefFor(parts.at(0), parts.at(1), parts.value(2)));
    }
    for (const QString &edit : parser.values(u"edit"_s)) {
        const qsizetype eq = edit.indexOf(u'=');
        bool ok = false;
        const int n = eq > 0 ? edit.left(eq).toInt(&ok) : 0;
        QFile file(edit.mid(eq + 1));
        if (!ok || n < 1 || n > draft.selection.size() || !file.open(QIODevice::ReadOnly))
            return out.fail(ExitUsage, u"cannot use --edit "_s + edit + u" (N=FILE, N a selected record)"_s);
        draft.editedPayloads.insert(n - 1, file.readAll());
    }
    for (const QString &choice : parser.values(u"edit-schema-id"_s)) {
        const QStringList parts = choice.split(u'=');
        bool okN = false, okId = false;
        const int n = parts.size() == 2 ? parts.at(0).toInt(&okN) : 0;
        const int id = parts.size() == 2 ? parts.at(1).toInt(&okId) : -1;
        if (!okN || !okId || id < 0 || !draft.editedPayloads.contains(n - 1))
            return out.fail(ExitUsage,
                            u"cannot use --edit-schema-id "_s + choice + u" (N=ID, N an edited record)"_s);
        draft.editSchemaIds.insert(n - 1, id);
    }
    draft.destinationTopic = parser.value(u"destination"_s);
    draft.release = parser.isSet(u"release"_s);
    draft.rateLimit = parser.value(u"rate"_s).toDouble();
    draft.reasonCode = parser.value(u"reason-code"_s);
    draft.reason = parser.value(u"reason"_s);
    draft.ticket = parser.value(u"ticket"_s);
    if (parser.isSet(u"expires-in"_s))
        draft.expiresAt =
            QDateTime::currentDateTimeUtc().addSecs(qint64(parser.value(u"expires-in"_s).toDouble() * 60));
    if (draft.reason.trimmed().isEmpty())
        return out.fail(ExitUsage, u"give --reason: the approver and the audit need to know why"_s);
    const bool reclaim = parser.isSet(u"reclaim"_s);
    const bool reset = parser.isSet(u"reset-offsets"_s);
    std::optional<OffsetResetTo> resetTo;
    if (reset) {
        if (reclaim || !draft.selection.isEmpty() || !draft.inboxRows.isEmpty()
            || draft.action != RemediationAction::Replay)
            return out.fail(ExitUsage, u"--reset-offsets moves offsets: no --reclaim, --select, --range, "
                                       u"--inbox-row or --action with it"_s);
        if (parser.value(u"group"_s).isEmpty() || parser.value(u"topic"_s).isEmpty()
            || parser.value(u"to"_s).isEmpty())
            return out.fail(ExitUsage, u"give --group, --topic and --to: which group moves where on which topic"_s);
        resetTo = OffsetResetTo::parse(parser.value(u"to"_s), &error);
        if (!resetTo)
            return out.fail(ExitUsage, error);
    }
    qint64 olderThanMs = -1;
    if (reclaim) {
        if (parser.value(u"consumer"_s).isEmpty())
            return out.fail(ExitUsage, u"give --consumer: whose stuck rows --reclaim releases"_s);
        if (!draft.selection.isEmpty() || !draft.inboxRows.isEmpty()
            || draft.action != RemediationAction::Replay)
            return out.fail(ExitUsage, u"--reclaim finds its own records: no --select, --range, --inbox-row "
                                       u"or --action with it"_s);
        if (parser.isSet(u"older-than"_s)) {
            olderThanMs = parseDurationMs(parser.value(u"older-than"_s));
            if (olderThanMs < 0)
                return out.fail(ExitUsage, u"cannot read --older-than "_s + parser.value(u"older-than"_s)
                                               + u" (e.g. 30m, 2h, 300s)"_s);
        }
    }

    Connections c;
    if (!c.open(parser, true, reset || reclaim || !draft.selection.isEmpty(), &error))
        return out.fail(ExitError, error);
    if (reset) {
        OffsetResetInput input;
        input.group = parser.value(u"group"_s);
        input.topic = parser.value(u"topic"_s);
        input.to = *resetTo;
        input.cluster = c.cluster;
        input.policy = c.policy;
        input.inboxMappings = c.inboxMappings;
        draft.offsetReset = OffsetResetPlanner::plan(input, c.inboxDb());
        if (!draft.offsetReset.error.isEmpty())
            return out.fail(ExitError, draft.offsetReset.error);
        draft.action = RemediationAction::ResetOffsets;
        if (draft.offsetReset.movedPartitions() == 0) {
            out.done({{u"requestId"_s, 0}, {u"offsetReset"_s, draft.offsetReset.toJson()}},
                     draft.offsetReset.summary() + u"Nothing to reset: every partition is at its target; "
                                                   u"no request filed\n"_s);
            return ExitOk;
        }
    }
    if (reclaim) {
        ReclaimInput input;
        input.consumer = parser.value(u"consumer"_s);
        input.topic = parser.value(u"topic"_s);
        input.olderThanMs = olderThanMs;
        input.cluster = c.cluster;
        input.policy = c.policy;
        input.inboxMappings = c.inboxMappings;
        draft.reclaim = ReclaimPlanner::plan(input, c.inboxDb());
        if (!draft.reclaim.error.isEmpty())
            return out.fail(ExitError, draft.reclaim.error);
        draft.selection = draft.reclaim.selection();
        draft.destinationTopic = draft.reclaim.topic;
        if (draft.selection.isEmpty()) {
            // Nothing to file is an answer, not a failure: a scheduled reclaim finds no stuck row most days.
            const ReclaimPlan shown = draft.reclaim.masked(KeyMask(c.policy));
            out.done({{u"requestId"_s, 0}, {u"reclaim"_s, shown.toJson()}},
                     shown.summary() + u"Nothing to reclaim: "_s
                         + (draft.reclaim.rows.isEmpty()
                                ? u"no row of "_s + input.consumer + u" is in progress for that long"_s
                                : u"no stuck row's record was found"_s)
                         + u"; no request filed\n"_s);
            return ExitOk;
        }
    }
    RequestBuilderContext context;
    context.cluster = c.cluster;
    context.inboxDb = c.inboxDb();
    context.inboxMappings = c.inboxMappings;
    context.policy = c.policy;
    // Edits of schema payloads are encoded like their originals: the schemas from the registry or files.
    CommandSchemas schemas;
    schemas.setRegistry(parser, {}, context.fetchTimeoutMs);
    if (!draft.editedPayloads.isEmpty()) {
        if (!schemas.open(parser, {}, &error))
            return out.fail(ExitUsage, error);
        context.schemas = schemas.catalog();
    }
    const BuiltRequest built = RequestBuilder::build(draft, context);
    if (built.editInvalid)
        return out.fail(ExitUsage, built.error); // the edit as written: its item and field path
    if (!built.ok() && built.dryRun.count == 0)
        return out.fail(ExitError, built.error);
    if (!out.json)
        out.text(built.dryRun.summary());
    if (!built.ok())
        return out.fail(ExitRefused, built.error, {{u"dryRun"_s, built.dryRun.toJson()}});
    AuditStore store(c.audit);
    const qint64 id = RequestBuilder::submit(store, built, &error);
    if (id == 0)
        return out.fail(ExitRefused, error);
    out.done({{u"requestId"_s, id},
              {u"status"_s, u"pending"_s},
              {u"items"_s, int(built.request.items.size())},
              {u"requiredApprovals"_s, built.request.requiredApprovals},
              {u"dryRun"_s, built.dryRun.toJson()}},
             u"Request "_s + QString::number(id) + u" filed: pending, "_s
                 + QString::number(built.request.requiredApprovals) + u" approval(s) needed\n"_s);
    return ExitOk;
}

int decide(const QStringList &arguments, bool approve)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        approve ? u"Approves a pending request (not your own: the database refuses)."_s
                : u"Rejects a pending request; it can never execute."_s);
    addCommonOptions(parser, false);
    addRequestIdOption(parser);
    parser.addOption({u"comment"_s, u"A comment kept with the decision."_s, u"text"_s});
    parser.process(arguments);
    Output out(parser);
    const qint64 id = requestId(parser);
    if (id <= 0)
        return out.fail(ExitUsage, u"give the request id: berth replay VERB ID (or --request ID)"_s);
    Connections c;
    QString error;
    if (!c.open(parser, false, false, &error))
        return out.fail(ExitError, error);
    AuditStore store(c.audit);
    const QString comment = parser.value(u"comment"_s);
    if (!(approve ? store.approve(id, comment, &error) : store.reject(id, comment, &error)))
        return out.fail(ExitRefused, error);
    const std::optional<RequestDetail> detail = store.requestDetail(id, &error, 0);
    const QString status = detail ? AuditText::statusName(detail->request.status) : QString();
    out.done(
        {{u"requestId"_s, id}, {u"decision"_s, approve ? u"approve"_s : u"reject"_s}, {u"status"_s, status}},
        u"Request "_s + QString::number(id) + u": "_s + (approve ? u"approved"_s : u"rejected"_s)
            + u" by you; now "_s + status + u'\n');
    return ExitOk;
}

// The request named by --request, connected as whoever logs in; nullopt (and *exitCode) when there is none.
std::optional<RequestDetail> requestNamed(const QCommandLineParser &parser, const Output &out, Connections &c,
                                          bool kafkaOptions, int *exitCode)
{
    const qint64 id = requestId(parser);
    if (id <= 0) {
        *exitCode = out.fail(ExitUsage, u"give the request id: berth replay VERB ID (or --request ID)"_s);
        return std::nullopt;
    }
    QString error;
    if (!c.open(parser, kafkaOptions, false, &error)) {
        *exitCode = out.fail(ExitError, error);
        return std::nullopt;
    }
    AuditStore store(c.audit);
    std::optional<RequestDetail> detail = store.requestDetail(id, &error, 0);
    if (!detail)
        *exitCode = out.fail(
            ExitError, error.isEmpty() ? QString(u"there is no request "_s + QString::number(id)) : error);
    return detail;
}

QJsonObject outcomeJson(const ReplayOutcome &o)
{
    QJsonArray problems;
    for (const ReplayItemProblem &p : o.problems)
        problems.append(
            QJsonObject{{u"item"_s, p.itemNo}, {u"replayId"_s, p.replayId}, {u"error"_s, p.error}});
    return {{u"started"_s, o.started},
            {u"status"_s, AuditText::statusName(o.finalStatus)},
            {u"total"_s, o.total},
            {u"delivered"_s, o.delivered},
            {u"reconciled"_s, o.reconciled},
            {u"failed"_s, o.failed},
            {u"refused"_s, o.refused},
            {u"skipped"_s, o.skipped},
            {u"producedThisRun"_s, o.producedThisRun},
            {u"cancelled"_s, o.cancelled},
            {u"interrupted"_s, o.pausedStop},
            {u"canaryTripped"_s, o.canaryTripped},
            {u"elapsedMs"_s, o.elapsedMs},
            {u"error"_s, o.error},
            {u"problems"_s, problems}};
}

QJsonObject resetOutcomeJson(const OffsetResetOutcome &o)
{
    QJsonArray partitions;
    for (const OffsetResetPartitionOutcome &p : o.partitions)
        partitions.append(QJsonObject{{u"partition"_s, p.partition},
                                      {u"before"_s, p.before},
                                      {u"target"_s, p.target},
                                      {u"committed"_s, p.committed},
                                      {u"verified"_s, p.verified()},
                                      {u"recognised"_s, p.recognised},
                                      {u"movedSince"_s, p.movedSince}});
    return {{u"started"_s, o.started},
            {u"action"_s, u"reset_offsets"_s},
            {u"status"_s, AuditText::statusName(o.finalStatus)},
            {u"group"_s, o.group},
            {u"topic"_s, o.topic},
            {u"refused"_s, o.refused},
            {u"refusal"_s, o.refusal},
            {u"verified"_s, o.verified},
            {u"partitions"_s, partitions},
            {u"elapsedMs"_s, o.elapsedMs},
            {u"error"_s, o.error}};
}

// An approved offset reset: refused (exit 3, nothing moved) while the group has active members; else the
// targets committed, read back and verified (exit 0; 4 when a partition reads back elsewhere).
int executeOffsetReset(const Output &out, Connections &c, qint64 id)
{
    const OffsetResetOutcome o = OffsetResetExecutor::run(c.audit, c.cluster, id);
    const QJsonObject json = resetOutcomeJson(o);
    if (!o.started)
        return out.fail(ExitRefused, o.error, json);
    if (!o.error.isEmpty())
        return out.fail(ExitError, o.error, json);
    if (o.refused)
        return out.fail(ExitRefused, u"Request "_s + QString::number(id) + u" refused, nothing moved: "_s
                                         + o.refusal,
                        json);
    QString text = u"Request "_s + QString::number(id) + u": "_s + AuditText::statusName(o.finalStatus)
                   + u"; group "_s + o.group + u" on "_s + o.topic
                   + (o.verified ? u", committed offsets read back and verified\n"_s
                                 : u", committed offsets read back differ\n"_s);
    for (const OffsetResetPartitionOutcome &p : o.partitions)
        text += u"  "_s + OffsetResetExecutor::partitionText(p) + u'\n';
    out.done(json, text);
    return o.verified ? ExitOk : ExitPartial;
}

int execute(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        u"Executes an approved request effectively-once; re-run to resume after an "
        u"interruption or a crash. Ctrl-C stops cleanly (resumable)."_s);
    addCommonOptions(parser, true);
    addRequestIdOption(parser);
    parser.addOption({u"rate"_s, u"Messages per second (overrides the request's; 0: unlimited)."_s, u"n"_s});
    parser.addOption(
        {u"canary"_s, u"Send this many first and watch the DLQ for them before the rest."_s, u"n"_s});
    parser.addOption({u"canary-watch"_s, u"How long the canary is watched, in ms."_s, u"ms"_s, u"5000"_s});
    parser.addOption(
        {u"keep-diagnostic-headers"_s, u"Keep the DLQ's diagnostic headers on replayed records."_s});
    parser.addOption({u"quiet"_s, u"No progress lines on stderr."_s});
    parser.process(arguments);
    Output out(parser);
    const qint64 id = requestId(parser);
    if (id <= 0)
        return out.fail(ExitUsage, u"give the request id: berth replay VERB ID (or --request ID)"_s);
    Connections c;
    QString error;
    if (!c.open(parser, true, true, &error))
        return out.fail(ExitError, error);
    if (const std::optional<RequestDetail> d = AuditStore(c.audit).requestDetail(id, &error, 0);
        d && d->request.action == RemediationAction::ResetOffsets)
        return executeOffsetReset(out, c, id);
    ReplayOptions options;
    if (parser.isSet(u"rate"_s))
        options.rateLimit = parser.value(u"rate"_s).toDouble();
    options.canaryCount = parser.value(u"canary"_s).toInt();
    options.canaryWatchMs = parser.value(u"canary-watch"_s).toInt();
    options.keepDiagnosticHeaders = parser.isSet(u"keep-diagnostic-headers"_s);
    options.stopWhenPaused = true; // a canary trip or Ctrl-C ends the command; run it again to go on
    options.inboxMappings = c.inboxMappings;
    ReplayControl control;
    g_control = &control;
    std::signal(SIGINT, onReplayInterrupt);
    std::signal(SIGTERM, onReplayInterrupt);
    const bool progress = !parser.isSet(u"quiet"_s);
    qint64 lastLine = -1;
    ReplayExecutor executor(c.audit, c.cluster, c.inboxDb());
    const ReplayOutcome outcome = executor.run(id, options, control, [&](const ReplayProgress &p) {
        // One line a second at most: a terminal, not a log.
        const qint64 second = QDateTime::currentSecsSinceEpoch();
        if (!progress || (second == lastLine && p.phase == ReplayPhase::Producing))
            return;
        lastLine = second;
        out.progress(
            replayPhaseName(p.phase) + u": "_s + QString::number(p.done) + u'/' + QString::number(p.total)
            + u" done, "_s + QString::number(p.delivered) + u" delivered ("_s + QString::number(p.reconciled)
            + u" reconciled), "_s + QString::number(p.failed) + u" failed, "_s
            + QString::number(p.ratePerSecond, 'f', 0) + u" msgs/s, ETA "_s
            + (p.etaMs < 0 ? u"?"_s : QString(QString::number(double(p.etaMs) / 1000.0, 'f', 0) + u" s"_s)));
    });
    g_control = nullptr;
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);
    const QJsonObject json = outcomeJson(outcome);
    if (!outcome.started)
        return out.fail(ExitRefused, outcome.error, json);
    if (!outcome.error.isEmpty())
        return out.fail(ExitError,
                        outcome.error + u" (the request stays executing: run execute again to resume)"_s,
                        json);
    QString text = u"Request "_s + QString::number(id) + u": "_s + AuditText::statusName(outcome.finalStatus)
                   + u"; "_s + QString::number(outcome.delivered) + u" delivered ("_s
                   + QString::number(outcome.reconciled) + u" found by reconciliation), "_s
                   + QString::number(outcome.skipped) + u" skipped, "_s + QString::number(outcome.failed)
                   + u" failed ("_s + QString::number(outcome.refused) + u" refused), "_s
                   + QString::number(outcome.producedThisRun) + u" produced in this run\n"_s;
    for (const ReplayItemProblem &p : outcome.problems)
        text += u"  item "_s + QString::number(p.itemNo) + u" ("_s + p.replayId + u"): "_s + p.error + u'\n';
    out.done(json, text);
    if (outcome.pausedStop) {
        out.progress(outcome.canaryTripped
                         ? u"stopped: the canary came back to the DLQ; run execute again to go on"_s
                         : u"interrupted: run execute again to resume"_s);
        return ExitInterrupted;
    }
    if (outcome.finalStatus == RequestStatus::Completed)
        return ExitOk;
    return outcome.cancelled ? ExitInterrupted : ExitPartial;
}

int status(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        u"Shows a request: status, approvals, and its items' execution states (with --policy, what its "
        u"masking rules name is masked)."_s);
    addCommonOptions(parser, true); // --policy: the masking rules
    addRequestIdOption(parser);
    parser.process(arguments);
    Output out(parser);
    Connections c;
    int exitCode = ExitOk;
    std::optional<RequestDetail> detail = requestNamed(parser, out, c, true, &exitCode);
    if (!detail)
        return exitCode;
    const QStringList masked = RequestMask::apply(KeyMask(c.policy), *detail);
    const qint64 id = detail->request.id;
    QString error;
    QHash<int, IntentJournal::Intent> journaled;
    IntentJournal journal(c.audit, id);
    if (!journal.load(&journaled, &error))
        return out.fail(ExitError, error);
    const RemediationRequest &r = detail->request;
    // Counts per state, and the items that did not get through (failed, or still pending), with why.
    QHash<QString, int> states;
    QList<int> unfinished;
    for (auto it = journaled.cbegin(); it != journaled.cend(); ++it) {
        ++states[IntentJournal::stateName(it->state)];
        if (it->state == IntentJournal::State::Failed || it->state == IntentJournal::State::Pending)
            unfinished.append(it.key());
    }
    std::sort(unfinished.begin(), unfinished.end());
    QJsonObject intents;
    for (auto it = states.cbegin(); it != states.cend(); ++it)
        intents.insert(it.key(), it.value());
    QJsonArray problems;
    for (const int item : unfinished.first(std::min<qsizetype>(unfinished.size(), MaxListedProblems))) {
        const IntentJournal::Intent &in = journaled.value(item);
        QString why = in.error;
        PayloadMask::scrub(why, masked);
        problems.append(QJsonObject{{u"item"_s, item},
                                    {u"replayId"_s, replayIdFor(id, item)},
                                    {u"state"_s, IntentJournal::stateName(in.state)},
                                    {u"error"_s, why}});
    }
    QJsonArray approvals;
    QString text = u"Request "_s + QString::number(id) + u" ("_s + AuditText::actionName(r.action)
                   + u") is "_s + AuditText::statusName(r.status) + u"; requested by "_s + r.requestedBy
                   + u", "_s + QString::number(r.itemCount) + u" item(s), expires "_s
                   + r.expiresAt.toUTC().toString(Qt::ISODate) + u'\n';
    for (const Approval &a : detail->approvals) {
        approvals.append(QJsonObject{{u"approver"_s, a.approver},
                                     {u"approved"_s, a.approved},
                                     {u"comment"_s, a.comment},
                                     {u"at"_s, a.at.toUTC().toString(Qt::ISODateWithMs)}});
        text += u"  "_s + (a.approved ? u"approved by "_s : u"rejected by "_s) + a.approver + u'\n';
    }
    for (const QString &state : {u"pending"_s, u"delivered"_s, u"failed"_s, u"skipped"_s})
        text += u"  intents "_s + state + u": "_s + QString::number(states.value(state)) + u'\n';
    for (const QJsonValue &p : std::as_const(problems)) {
        const QJsonObject o = p.toObject();
        text += u"  "_s + o.value(u"replayId"_s).toString() + u' ' + o.value(u"state"_s).toString() + u": "_s
                + o.value(u"error"_s).toString() + u'\n';
    }
    out.done({{u"requestId"_s, id},
              {u"action"_s, AuditText::actionName(r.action)},
              {u"status"_s, AuditText::statusName(r.status)},
              {u"requestedBy"_s, r.requestedBy},
              {u"items"_s, r.itemCount},
              {u"expiresAt"_s, r.expiresAt.toUTC().toString(Qt::ISODateWithMs)},
              {u"requiredApprovals"_s, r.requiredApprovals},
              {u"approvals"_s, approvals},
              {u"intents"_s, intents},
              {u"unfinished"_s, problems},
              {u"dryRun"_s, r.dryRun}},
             text);
    return ExitOk;
}

// `berth replay verify ID`: its own exit codes (ARCHITECTURE.md, Command line): 0 verified, 1 verified
// with failures, 3 unverified (timed out: run it again later), 2 on error.
int verify(const QStringList &arguments)
{
    enum VerifyExit { VerifiedOk = 0, VerifiedFailures = 1, VerifyError = 2, Unverified = 3 };
    QCommandLineParser parser;
    parser.setApplicationDescription(
        u"Follows each replayed record of an executed request to its outcome at the request's consumer "
        u"(committed offset, inbox row, a return to the DLQ) and writes the result to the audit log. "
        u"Exit 0 verified, 1 verified with failures, 3 unverified (still pending: run it again later), "
        u"2 on error."_s);
    addCommonOptions(parser, true);
    addRequestIdOption(parser);
    parser.addOption(
        {u"timeout"_s, u"How long to wait for outcomes, in seconds (default 60)."_s, u"s"_s, u"60"_s});
    parser.addOption(
        {u"consumer"_s, u"The consumer to verify for (default: the one the dry run named)."_s, u"name"_s});
    parser.process(arguments);
    Output out(parser);
    const qint64 id = requestId(parser);
    if (id <= 0)
        return out.fail(VerifyError, u"give the request id (berth replay verify ID)"_s);
    Connections c;
    QString error;
    if (!c.open(parser, true, true, &error))
        return out.fail(VerifyError, error);
    const auto exitFor = [](VerificationResult result) {
        switch (result) {
        case VerificationResult::Verified:
            return VerifiedOk;
        case VerificationResult::VerifiedWithFailures:
            return VerifiedFailures;
        case VerificationResult::Unverified:
            return Unverified;
        }
        return VerifyError;
    };
    if (const std::optional<RequestDetail> d = AuditStore(c.audit).requestDetail(id, &error, 0);
        d && d->request.action == RemediationAction::ResetOffsets) {
        // A reset is verified when executed (its committed offsets read back): its recorded verification.
        const std::optional<ReplayVerification> v = ReplayVerification::lastRecorded(c.audit, id, &error);
        if (!v)
            return out.fail(VerifyError, error.isEmpty() ? u"Request "_s + QString::number(id)
                                                               + u" has not been executed"_s
                                                         : error);
        out.done(v->toJson(), v->summary());
        return exitFor(v->result);
    }
    VerifyOptions options;
    options.timeoutMs = int(parser.value(u"timeout"_s).toDouble() * 1000);
    options.consumer = parser.value(u"consumer"_s);
    options.policy = c.policy;
    options.inboxMappings = c.inboxMappings;
    ReplayVerifier verifier(c.audit, c.cluster, c.inboxDb());
    const ReplayVerification v = verifier.verify(id, options);
    if (!v.error.isEmpty())
        return out.fail(VerifyError, v.error, v.toJson());
    out.done(v.toJson(), v.summary());
    return exitFor(v.result);
}

int runbook(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(u"Prints a request as a markdown runbook: exact commands, blast radius, "
                                     u"expected no-op rate, approvers."_s);
    addCommonOptions(parser, true); // --bootstrap: how the commands name the cluster
    addRequestIdOption(parser);
    parser.process(arguments);
    Output out(parser);
    Connections c;
    int exitCode = ExitOk;
    const std::optional<RequestDetail> detail = requestNamed(parser, out, c, true, &exitCode);
    if (!detail)
        return exitCode;
    const qint64 id = detail->request.id;
    RunbookContext context;
    context.bootstrap = parser.value(u"bootstrap"_s);
    // The conninfo as given, minus any password: a runbook is pasted into tickets.
    QString password;
    context.auditDb = ProfileSecrets::stripPassword(parser.value(u"db"_s), &password);
    context.mask = KeyMask(c.policy);
    const QString markdown = ReplayRunbook::markdown(*detail, context);
    out.done({{u"requestId"_s, id}, {u"markdown"_s, markdown}}, markdown);
    return ExitOk;
}
} // namespace

namespace Commands {
int replay(const QStringList &arguments)
{
    QStringList args = arguments;
    const QString verb = args.size() > 1 ? args.takeAt(1) : QString();
    if (verb == u"request"_s)
        return request(args);
    if (verb == u"approve"_s)
        return decide(args, true);
    if (verb == u"reject"_s)
        return decide(args, false);
    if (verb == u"execute"_s)
        return execute(args);
    if (verb == u"status"_s)
        return status(args);
    if (verb == u"runbook"_s)
        return runbook(args);
    if (verb == u"verify"_s)
        return verify(args);
    QTextStream(stderr)
        << "Usage: berth replay request|approve|reject|execute|status|verify|runbook [--help]\n";
    return verb.isEmpty() || verb == u"--help"_s ? ExitOk : ExitUsage;
}
} // namespace Commands
