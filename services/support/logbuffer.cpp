#include "logbuffer.h"

#include <QCoreApplication>
#include <QMutexLocker>

namespace {
QtMessageHandler previousHandler = nullptr;
LogBuffer *installed = nullptr;

void handler(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    if (installed)
        installed->append(type, QString::fromLatin1(context.category ? context.category : "default"), message);
    if (previousHandler)
        previousHandler(type, context, message);
}
}

LogBuffer *LogBuffer::instance()
{
    if (!installed) {
        // Owned by the application object, so it outlives every view and goes with the event loop.
        installed = new LogBuffer(DefaultCapacity, QCoreApplication::instance());
        previousHandler = qInstallMessageHandler(handler);
    }
    return installed;
}

LogBuffer::LogBuffer(int capacity, QObject *parent)
    : QObject(parent)
    , m_capacity(std::max(1, capacity))
{
}

LogBuffer::~LogBuffer()
{
    if (installed == this) {
        qInstallMessageHandler(previousHandler);
        installed = nullptr;
    }
}

void LogBuffer::append(QtMsgType type, const QString &category, const QString &message)
{
    {
        QMutexLocker lock(&m_mutex);
        m_entries.push_back({QDateTime::currentDateTimeUtc(), type, category, message, ++m_serial});
        while (m_entries.size() > size_t(m_capacity))
            m_entries.pop_front();
    }
    // A burst of messages from a worker thread is one notification, not one per line.
    if (!m_notifyPending.exchange(true))
        QMetaObject::invokeMethod(this, [this] {
            m_notifyPending = false;
            Q_EMIT appended();
        }, Qt::QueuedConnection);
}

QList<LogBuffer::Entry> LogBuffer::entries() const
{
    QMutexLocker lock(&m_mutex);
    return QList<Entry>(m_entries.cbegin(), m_entries.cend());
}

int LogBuffer::severity(QtMsgType type)
{
    switch (type) {
    case QtDebugMsg:
        return 0;
    case QtInfoMsg:
        return 1;
    case QtWarningMsg:
        return 2;
    case QtCriticalMsg:
        return 3;
    case QtFatalMsg:
        return 4;
    }
    return 0;
}
