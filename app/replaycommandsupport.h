#pragma once

#include "services/inbox/inboxmappingset.h"
#include "services/inbox/pgsession.h"
#include "services/policy/deliverypolicy.h"
#include "services/kafka/kafkaconfig.h"

#include <QCommandLineParser>
#include <QJsonObject>
#include <QString>

// What the replay and audit subcommands share: their options, connections, output and exit codes.
namespace ReplayCommandSupport {
// Exit codes are part of the command line's contract (scripts and the runbook rely on them).
enum ExitCode {
    ExitOk = 0,
    ExitError = 1,   // could not connect or read; nothing was decided
    ExitUsage = 2,   // bad arguments
    ExitRefused = 3, // the database or the policy refused (not allowed, not approved, expired, blocked...)
    ExitPartial = 4, // executed, some items failed: run execute again to retry them
    ExitInterrupted = 5, // stopped before the end (Ctrl-C, canary): run execute again to resume
};

// --db (the audit database), --json, --help; with Kafka also --bootstrap, --property, --inbox-db and
// --policy (the delivery policy: its verdict and the consumers' inbox mappings).
void addCommonOptions(QCommandLineParser &parser, bool kafka);

// Every verb that acts on one request takes its id positionally (`berth replay approve 3`) or as
// --request ID. requestId: the id given, 0 when none (or not a number).
void addRequestIdOption(QCommandLineParser &parser);
qint64 requestId(const QCommandLineParser &parser);

// The audit session (migrated to the shipped version), the cluster, and the consumers' inbox database.
struct Connections {
    PgSession audit;
    PgSession inbox;
    KafkaProperties cluster;
    DeliveryPolicy policy; // --policy's, empty without it
    // The policy's inbox mappings; those naming no database use --inbox-db, else --db.
    InboxMappingSet inboxMappings;
    // kafkaOptions: the parser has addCommonOptions(..., true)'s options; needKafka: --bootstrap is required.
    bool open(const QCommandLineParser &parser, bool kafkaOptions, bool needKafka, QString *error);
    // The default inbox database's session: --inbox-db when given, else the audit database's (--db).
    PgSession *inboxDb() { return inbox.isOpen() ? &inbox : audit.isOpen() ? &audit : nullptr; }
};

// Text for people on stdout, or one JSON object with --json; errors always on stderr, one line each.
class Output final {
public:
    explicit Output(const QCommandLineParser &parser);
    const bool json;
    void text(const QString &text) const;     // only without --json
    void progress(const QString &line) const; // stderr
    void done(const QJsonObject &result, const QString &text) const;
    // Prints the reason (and the JSON with "error" when --json), returns code.
    int fail(int code, const QString &reason, QJsonObject result = {}) const;
};
} // namespace ReplayCommandSupport
