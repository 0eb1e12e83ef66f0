#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

// The approver's view of an edit: the original payload against the edited one, line by line. JSON on
// both sides is compared as indented JSON with sorted keys, so re-formatting alone shows no change and
// the lines that differ are the edit. Plain text out: payloads are data, never markup.
namespace PayloadDiff {
enum class Kind { Same, Removed, Added };

struct Line {
    Kind kind = Kind::Same;
    QString text;
    friend bool operator==(const Line &, const Line &) = default;
};

// Beyond this many line pairs in the changed middle, the middle is shown as removed then added: an
// approver cannot review such an edit line by line anyway, and the table would cost too much memory.
constexpr qint64 MaxCells = 4'000'000;

QString normalized(const QByteArray &payload, bool *isJson = nullptr);
QList<Line> compare(const QByteArray &before, const QByteArray &after);
// "  same", "- removed", "+ added", one per line, with control characters made visible.
QString unified(const QList<Line> &lines);
} // namespace PayloadDiff
