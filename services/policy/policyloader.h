#pragma once

#include "services/policy/deliverypolicy.h"

#include <QByteArray>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

// Reads the delivery policy file (ARCHITECTURE.md, Contracts: Delivery policy file):
//
//   deliverySemantics:
//     topics:
//       <topic>: { defaultGuarantee, key, ordering, retention, replayAllowed, partitions }
//     consumers:
//       <group>:
//         topics: [<topic>, ...]
//         idempotency: { strategy, duplicateHandling, externalProviderIdempotency }
//         offsetCommit: { timing }
//         retry: { maxAttempts, backoff }
//         dlq: { enabled, topic, owner, manualReviewRequired }
//         poison: { maxAttemptsBeforePark }
//         lagSlo: { maxLagSeconds }
//         replay: { allowed }
//         inbox:
//           database: <conninfo, service=name or a profile database entry>   (optional: the default one)
//           table: <schema.table or table>          (a part with a dot, quote or blanks in "double quotes")
//           columns: { messageId, status, updated,   (required)
//                      firstSeen, attempts, error, consumer, topic, payload }
//           consumerValue: <text>                    (default: the consumer's name)
//           statuses: { <word>: inProgress | completed | failedRetryable | failedTerminal | parked | skipped }
//           skippedStatus, releaseTo, stuckAfterSeconds, retakes: [<state>, ...]
//         outbox: { table, status, created, pending }   (beside an inbox)
//
// The seed's text lost its indentation, so duplicateHandling, externalProviderIdempotency and
// manualReviewRequired are also accepted directly under the consumer; `partitions` and a consumer's
// `topics` are Berth's additions. Nothing here throws: every problem becomes a diagnostic.

struct PolicyDiagnostic {
    enum Severity { Error, Warning };
    Severity severity = Error;
    int line = 0;   // 1-based; 0 when the problem has no position (unreadable file, size limit)
    int column = 0; // 1-based; 0 when unknown
    QString message;

    friend bool operator==(const PolicyDiagnostic &, const PolicyDiagnostic &) = default;
};

struct PolicyLoadResult {
    DeliveryPolicy policy; // whatever could be read, even when there are errors
    QList<PolicyDiagnostic> diagnostics;
    QString sourceName;

    bool ok() const; // no Error diagnostics (warnings allowed)
    QList<PolicyDiagnostic> errors() const;
    QList<PolicyDiagnostic> warnings() const;
    QStringList messages() const; // every diagnostic through formatDiagnostic, in order

    friend bool operator==(const PolicyLoadResult &, const PolicyLoadResult &) = default;
};

// Compiler style, so editors and terminals can jump to it: "policy.yaml:12:7: warning: unknown key ...".
QString formatDiagnostic(const QString &sourceName, const PolicyDiagnostic &diagnostic);

// A policy is a few kilobytes (a thousand consumers fit in a third of the limit). yaml-cpp needs many times
// the input's size in memory and time grows with it, so the limit keeps a wrong path (a log, a dump) from
// stalling the console or eating gigabytes.
inline constexpr qsizetype MaxPolicyBytes = 1024 * 1024;

PolicyLoadResult loadPolicy(const QByteArray &yaml, const QString &sourceName);
PolicyLoadResult loadPolicyFile(const QString &path); // sourceName is the path

// The demo world's policy, compiled into the services library.
QString demoPolicyPath();

Q_DECLARE_METATYPE(PolicyDiagnostic)
Q_DECLARE_METATYPE(PolicyLoadResult)
