#include "dlqscantypes.h"

#include <QDateTime>

#include <algorithm>
#include <limits>

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

bool DlqScanRequest::parsePartitions(QStringView text, QString *error)
{
    // The index keeps a partition in 16 bits (DlqIndexEntry::partition): no topic it reads has more.
    constexpr qint64 maxPartition = 65535;
    // Digits only (no sign, no blank inside); a number too long for qint64 reads as beyond any topic.
    auto number = [](QStringView digits, qint64 &out) {
        if (digits.isEmpty()
            || !std::all_of(digits.begin(), digits.end(), [](QChar c) { return c >= u'0' && c <= u'9'; }))
            return false;
        bool ok = false;
        out = digits.toLongLong(&ok);
        if (!ok)
            out = std::numeric_limits<qint64>::max();
        return true;
    };
    auto fail = [error](QStringView part, QStringView why) {
        if (error)
            *error = u'"' + part + u'"' + (why.isEmpty() ? QString() : QString(u" ("_s + why + u')'));
        return false;
    };
    QList<int> read;
    for (const QStringView raw : text.split(u',')) {
        const QStringView part = raw.trimmed();
        if (part.isEmpty())
            continue;
        qint64 first = 0;
        qint64 last = 0;
        if (part.startsWith(u'-')) {
            if (number(part.sliced(1).trimmed(), first))
                return fail(part, u"partitions count from 0");
            return fail(part, {});
        }
        if (const qsizetype dash = part.indexOf(u'-'); dash >= 0) {
            if (!number(part.first(dash).trimmed(), first) || !number(part.sliced(dash + 1).trimmed(), last))
                return fail(part, u"use a number or a range such as 5-7");
            if (first > last)
                return fail(part, u"a range runs from low to high");
        } else if (number(part, first)) {
            last = first;
        } else {
            return fail(part, {});
        }
        if (last > maxPartition)
            return fail(part, u"no topic has a partition beyond 65535");
        for (qint64 p = first; p <= last; ++p)
            read.append(int(p));
    }
    std::sort(read.begin(), read.end());
    read.erase(std::unique(read.begin(), read.end()), read.end());
    partitions = std::move(read);
    return true;
}
