#pragma once

#include "services/dlq/dlqindexentry.h"

#include <QHash>
#include <QList>
#include <QMap>
#include <QMetaType>
#include <QString>
#include <QStringList>

#include <vector>

// Dead letters that failed the same way. The fingerprint is exception class + cause class + reason
// pattern (the reason with numbers, ids, UUIDs, hex, times, e-mail addresses and quoted values replaced
// by placeholders), so "Order 17 not found" and "Order 912 not found" are one group.
struct FailureGroup {
    quint32 id = 0; // index in FailureGroups::groups()
    QString exceptionClass;
    QString causeClass;
    QString reasonPattern;
    QString sampleReason; // the first reason seen, as it was
    qint64 count = 0;
    qint64 firstSeenMs = -1; // DLQ record timestamps
    qint64 lastSeenMs = -1;
    QMap<qint64, qint32> perMinute; // minute since the epoch -> records
    qint32 poisonMessages = 0;      // messages of this group dead-lettered PoisonThreshold times or more

    QString fingerprint() const;
};

// A message that keeps failing: its idempotency key (or, without one, its original coordinates) was
// dead-lettered PoisonThreshold times or more.
struct PoisonMessage {
    QString messageId; // the idempotency key, or "topic/partition@offset" of the original record
    bool byIdempotencyKey = true;
    quint32 groupId = 0; // group of its latest failure
    qint32 failures = 0;
    qint64 lastSeenMs = -1;
};

// Groups entries as they are added. Single-threaded: the scanner's worker owns one per scan and hands
// changed groups to the UI in each batch; the pool must outlive it.
class FailureGroups final {
public:
    static constexpr int PoisonThreshold = 3;

    explicit FailureGroups(const StringPool &pool);

    quint32 add(const DlqIndexEntry &entry); // returns the entry's group id

    const QList<FailureGroup> &groups() const { return m_groups; }
    const QList<PoisonMessage> &poisonMessages() const { return m_poison; }
    // What changed since the last call (for incremental delivery).
    QList<FailureGroup> takeChangedGroups();
    QList<PoisonMessage> takeChangedPoison();

    static QString reasonPattern(QStringView reason);
    static QString fingerprint(QStringView exceptionClass, QStringView causeClass, QStringView reason);
    static constexpr qsizetype MaxPatternLength = 300; // bytes of UTF-8

private:
    struct GroupKey {
        quint32 exceptionId, causeId, patternId;
        friend bool operator==(const GroupKey &, const GroupKey &) = default;
        friend size_t qHash(const GroupKey &k, size_t seed = 0) noexcept
        {
            return qHashMulti(seed, k.exceptionId, k.causeId, k.patternId);
        }
    };
    struct Origin {
        quint32 topicId;
        qint32 partition;
        qint64 offset;
        friend bool operator==(const Origin &, const Origin &) = default;
        friend size_t qHash(const Origin &o, size_t seed = 0) noexcept
        {
            return qHashMulti(seed, o.topicId, o.partition, o.offset);
        }
    };
    quint32 patternOf(quint32 reasonId);
    void countFailure(const DlqIndexEntry &entry, quint32 groupId);
    void notePoison(const QString &messageId, bool byKey, int failures, quint32 groupId, qint64 seenMs);

    const StringPool &m_pool;
    std::vector<quint32> m_patternOfReason; // reason id -> pattern id + 1; 0: not normalised yet
    QHash<QByteArray, quint32> m_patternIds;
    QByteArray m_patternBuffer;
    QStringList m_patterns;
    QHash<GroupKey, quint32> m_groupIds;
    QList<FailureGroup> m_groups;
    std::vector<quint8> m_failuresByKey; // idempotency key id -> failures (saturating)
    QHash<Origin, quint8> m_failuresByOrigin;
    QList<PoisonMessage> m_poison;
    QHash<QString, qsizetype> m_poisonIndex;
    std::vector<bool> m_groupChanged;
    QList<quint32> m_changedGroups;
    QList<qsizetype> m_changedPoison;
    std::vector<bool> m_poisonChanged;
};

Q_DECLARE_METATYPE(FailureGroup)
Q_DECLARE_METATYPE(PoisonMessage)
