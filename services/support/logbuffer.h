#pragma once

#include <QDateTime>
#include <QList>
#include <QMutex>
#include <QObject>

#include <atomic>
#include <deque>

// The last few thousand log messages of the process, for the console's log panel. Installed as Qt's
// message handler (chained: the previous handler still prints to stderr), so every qCInfo/qCWarning of
// every thread lands here, librdkafka's own logs included (kafkaconfig routes them into berth.kafka).
// Bounded: the oldest message goes when a new one arrives at capacity.
class LogBuffer final : public QObject {
    Q_OBJECT
public:
    struct Entry {
        QDateTime at; // UTC
        QtMsgType type = QtDebugMsg;
        QString category;
        QString message;
        quint64 serial = 0; // increasing; tells a reader which entries it already has
    };
    static constexpr int DefaultCapacity = 5000;

    // The process-wide buffer, created and installed on first use (from the GUI thread).
    static LogBuffer *instance();
    explicit LogBuffer(int capacity = DefaultCapacity, QObject *parent = nullptr);
    ~LogBuffer() override;

    void append(QtMsgType type, const QString &category, const QString &message); // any thread
    QList<Entry> entries() const;
    int capacity() const { return m_capacity; }
    // Severity order (debug < info < warning < critical < fatal); QtMsgType's values are not in that order.
    static int severity(QtMsgType type);

Q_SIGNALS:
    void appended(); // coalesced: at most one queued emission per event-loop pass

private:
    mutable QMutex m_mutex;
    std::deque<Entry> m_entries;
    quint64 m_serial = 0;
    int m_capacity;
    std::atomic_bool m_notifyPending = false;
};
