#include "dlqscantypes.h"

#include <QDateTime>

using namespace Qt::StringLiterals;

bool DlqScanRequest::parseStart(QStringView text, QString *error)
{
    const QStringView t = text.trimmed();
    auto number = [&](QStringView digits, qint64 &out) {
        bool ok = false;
        out = digits.toLongLong(&ok);
        return ok && out >= 0;
    };
    qint64 value = 0;
    if (t == u"beginning") {
        start = Start::Beginning;
        startValue = 0;
        return true;
    }
    if (t == u"end") {
        start = Start::End;
        startValue = 0;
        return true;
    }
    if (t.startsWith(u"end-") && number(t.sliced(4), value)) {
        start = Start::LastN;
        startValue = value;
        return true;
    }
    if (t.startsWith(u"offset:") && number(t.sliced(7), value)) {
        start = Start::Offset;
        startValue = value;
        return true;
    }
    if (t.startsWith(u"time:")) {
        const QStringView when = t.sliced(5);
        if (number(when, value)) {
            start = Start::Timestamp;
            startValue = value;
            return true;
        }
        QDateTime dt = QDateTime::fromString(when.toString(), Qt::ISODateWithMs);
        if (dt.isValid()) {
            start = Start::Timestamp;
            startValue = dt.toMSecsSinceEpoch();
            return true;
        }
    }
    if (error)
        *error = u"Unknown start position \""_s + t
                 + u"\": use beginning, end, end-N, offset:N or time:<ISO-8601 or epoch ms>"_s;
    return false;
}

QString DlqScanRequest::startText() const
{
    switch (start) {
    case Start::Beginning:
        return u"beginning"_s;
    case Start::End:
        return u"end"_s;
    case Start::Offset:
        return u"offset:"_s + QString::number(startValue);
    case Start::Timestamp: {
        // ISO-8601 text has four-digit years: beyond them (time:2024000000000000000 is epoch ms, year
        // 64 million) only the number reads back as the same start.
        const QString iso = QDateTime::fromMSecsSinceEpoch(startValue, Qt::UTC).toString(Qt::ISODateWithMs);
        return u"time:"_s + (iso.isEmpty() ? QString::number(startValue) : iso);
    }
    case Start::LastN:
        return u"end-"_s + QString::number(startValue);
    }
    return {};
}
