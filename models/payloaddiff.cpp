#include "payloaddiff.h"

#include "models/dlqbrowsermodel.h"

#include <QJsonDocument>

#include <vector>

using namespace Qt::StringLiterals;

namespace PayloadDiff {

QString normalized(const QByteArray &payload, bool *isJson)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(payload, &error);
    const bool json = error.error == QJsonParseError::NoError && !doc.isNull();
    if (isJson)
        *isJson = json;
    // QJsonObject keeps keys sorted, so the indented text is canonical enough to compare.
    return json ? QString::fromUtf8(doc.toJson(QJsonDocument::Indented)) : QString::fromUtf8(payload);
}

QList<Line> compare(const QByteArray &before, const QByteArray &after)
{
    const QStringList a = normalized(before).split(u'\n');
    const QStringList b = normalized(after).split(u'\n');
    qsizetype prefix = 0;
    while (prefix < a.size() && prefix < b.size() && a.at(prefix) == b.at(prefix))
        ++prefix;
    qsizetype suffix = 0;
    while (suffix < a.size() - prefix && suffix < b.size() - prefix
           && a.at(a.size() - 1 - suffix) == b.at(b.size() - 1 - suffix))
        ++suffix;

    QList<Line> out;
    for (qsizetype i = 0; i < prefix; ++i)
        out << Line{Kind::Same, a.at(i)};
    const qsizetype n = a.size() - prefix - suffix;
    const qsizetype m = b.size() - prefix - suffix;
    if (n * m > MaxCells) {
        for (qsizetype i = 0; i < n; ++i)
            out << Line{Kind::Removed, a.at(prefix + i)};
        for (qsizetype j = 0; j < m; ++j)
            out << Line{Kind::Added, b.at(prefix + j)};
    } else {
        // Longest common subsequence of the changed middle, then walked front to back.
        std::vector<quint32> lcs(size_t((n + 1) * (m + 1)), 0);
        const auto at = [&](qsizetype i, qsizetype j) -> quint32 & { return lcs[size_t(i * (m + 1) + j)]; };
        for (qsizetype i = n - 1; i >= 0; --i) {
            for (qsizetype j = m - 1; j >= 0; --j)
                at(i, j) = a.at(prefix + i) == b.at(prefix + j) ? at(i + 1, j + 1) + 1
                                                                : std::max(at(i + 1, j), at(i, j + 1));
        }
        qsizetype i = 0;
        qsizetype j = 0;
        while (i < n || j < m) {
            if (i < n && j < m && a.at(prefix + i) == b.at(prefix + j)) {
                out << Line{Kind::Same, a.at(prefix + i)};
                ++i;
                ++j;
            } else if (i < n && (j == m || at(i + 1, j) >= at(i, j + 1))) {
                out << Line{Kind::Removed, a.at(prefix + i)}; // removals first, as diff(1) shows them
                ++i;
            } else {
                out << Line{Kind::Added, b.at(prefix + j)};
                ++j;
            }
        }
    }
    for (qsizetype k = b.size() - suffix; k < b.size(); ++k)
        out << Line{Kind::Same, b.at(k)};
    return out;
}

QString unified(const QList<Line> &lines)
{
    QStringList out;
    out.reserve(lines.size());
    for (const Line &line : lines) {
        const QString mark = line.kind == Kind::Added     ? u"+ "_s
                             : line.kind == Kind::Removed ? u"- "_s
                                                          : u"  "_s;
        out << mark + DlqBrowserModel::visibleText(line.text);
    }
    return out.join(u'\n');
}
} // namespace PayloadDiff
