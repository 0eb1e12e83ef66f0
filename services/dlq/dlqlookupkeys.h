#pragma once

#include <QByteArray>
#include <QHash>
#include <QString>

#include <mutex>
#include <optional>
#include <vector>

// The look-up keys masking hid (ARCHITECTURE.md, Masking: look-up keys). When a policy masks a topic's
// record key (or a header holding the idempotency key), the scan's index keeps "(masked)" where the key
// was, so no view, export, command-line JSON or log can show it. The inbox look-ups still need the real
// key: the scan writes it here, by the entry's partition and offset, and only the look-ups read it (the
// DLQ table's inbox column, `berth dlq scan`'s inbox state). Nothing here is ever shown: a reader asks for
// the key to send to the inbox and gets an id for its bookkeeping, never text to display.
//
// One writer (the scan's reading stage), any number of readers, under a mutex; the table holds rows only
// for the entries whose keys masking changed.
class DlqLookupKeys final {
public:
    // Writer: the real idempotency key and record key of the entry at (partition, offset), for whichever
    // masking changed (nullopt: the index's own copy is the real one).
    void add(int partition, qint64 offset, const std::optional<QString> &idempotencyKey,
             const std::optional<QByteArray> &key);

    struct Keys {
        quint32 idempotencyKeyId = 0; // 0: the index's own idempotency key is the real one
        std::optional<QString> idempotencyKey;
        std::optional<QByteArray> key;
    };
    // The real keys of an entry masking changed; nullopt for any other entry.
    std::optional<Keys> find(int partition, qint64 offset) const;
    bool isEmpty() const;

private:
    static quint64 slot(int partition, qint64 offset)
    {
        return (quint64(quint16(partition)) << 48) | quint64(offset);
    }
    quint32 idOf(const QString &idempotencyKey); // under m_mutex

    mutable std::mutex m_mutex;
    struct Row {
        quint32 idempotencyKeyId = 0; // into m_idempotencyKeys, 1-based
        qint32 key = -1;              // into m_keys
    };
    QHash<quint64, Row> m_rows;
    std::vector<QString> m_idempotencyKeys; // distinct, each once
    QHash<QString, quint32> m_idempotencyKeyIds;
    std::vector<QByteArray> m_keys;
};
