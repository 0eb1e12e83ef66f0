#pragma once

#include <QList>
#include <QMetaType>
#include <QString>

// One record that arrived on a dead-letter topic, reduced to what the alert rules judge it by: the DLQ
// headers' attempts and exception class (any dialect, decoded by decodeDlqHeaders).
struct DeadLetterArrival {
    QString topic;
    qint64 timeMs = -1;    // when it arrived (record timestamp, else when it was read)
    int attempts = -1;     // -1: the headers carry no attempts
    QString exceptionClass;
    QString causeClass;
    QString consumer;      // the group the headers name; empty when they name none
};
using DeadLetterArrivals = QList<DeadLetterArrival>;
Q_DECLARE_METATYPE(DeadLetterArrivals)
