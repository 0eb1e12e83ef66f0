#pragma once

#include "services/kafka/kafkaconfig.h"

#include <QHash>
#include <QMetaType>
#include <QObject>
#include <QStringList>

// Counts duplicates as they arrive: a non-committing tail of chosen topics (from their end, no group) that
// remembers each record's idempotency key for a window and counts the keys it has already seen. Budgeted:
// beyond `maxRecordsPerSecond` records are skipped and reported as unexamined rather than slowing anything.
struct DuplicateStats {
    struct Topic {
        qint64 examined = 0;
        qint64 duplicates = 0;
        qint64 withoutKey = 0;
        double duplicateRatePerMinute = 0; // over the last minute
        double duplicatePercent = 0;       // duplicates / examined over the last minute
    };
    QHash<QString, Topic> topics;
    qint64 skippedOverBudget = 0;
    bool ready = false; // assigned and reading
    QString error;
};
Q_DECLARE_METATYPE(DuplicateStats)

class DuplicateTail final : public QObject {
    Q_OBJECT
public:
    struct Settings {
        KafkaProperties cluster;
        QStringList topics;
        QByteArray keyHeader = "idempotency-key"; // first choice
        QString jsonField;                         // e.g. "eventId" or "meta.id"; used when the header is absent
        bool fallBackToRecordKey = true;
        int windowSeconds = 900;
        int maxKeys = 500000;
        int maxRecordsPerSecond = 50000;
    };
    explicit DuplicateTail(QObject *parent = nullptr);
    ~DuplicateTail() override;

    void start(const Settings &settings);
    void stop();

    // The key a record is judged by (header, JSON field, record key), empty when it has none.
    static QByteArray idempotencyKey(const Settings &settings, const struct KafkaRecord &record);

Q_SIGNALS:
    void statsUpdated(const DuplicateStats &stats); // about once a second

private:
    class Worker;
    Worker *m_worker = nullptr;
};
