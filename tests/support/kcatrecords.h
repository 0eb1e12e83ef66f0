#pragma once

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>

#include <optional>

// Records as kcat (the independent client) reads them, byte-exact: kcat -J writes key, value and header
// bytes as they are inside its JSON strings (only quotes, backslashes and control characters escaped), so
// decoding those strings by bytes, not as UTF-8, gives back invalid UTF-8, NULs and binary unchanged.
// QJsonDocument cannot: it refuses or replaces invalid UTF-8.
struct KcatRecord {
    int partition = -1;
    qint64 offset = -1;
    std::optional<QByteArray> key;                               // nullopt: NULL
    std::optional<QByteArray> value;                             // nullopt: NULL (a tombstone)
    QList<QPair<QByteArray, std::optional<QByteArray>>> headers; // in order; nullopt: a NULL value

    // The last value of a header (the DLQ dialects' rule), empty when absent or NULL.
    QByteArray header(QByteArrayView name) const;
};

namespace Kcat {
// Every record of a topic, in (partition, offset) order.
QList<KcatRecord> readAll(const QString &bootstrap, const QString &topic, QString *error);
// One line of kcat -J output; false (and *error) when it is not what kcat writes.
bool parseLine(QByteArrayView line, KcatRecord *record, QString *error);
} // namespace Kcat
