#include "services/inbox/inboxmappingdraft.h"

#include "services/inbox/inboxtableinfo.h"

#include <QCoreApplication>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace InboxMappingDraft {
QList<Word> vocabulary(const InboxDiscovery::StatusWords &found, const QHash<QString, InboxState> &current)
{
    QList<Word> out;
    for (const QString &w : found.words) {
        Word word{w, found.rows.value(w, -1), InboxState::Unknown, true, current.contains(w)};
        if (w != u"NULL"_s)
            word.state = word.fromMapping ? current.value(w) : InboxDiscovery::guessState(w);
        out.append(word);
    }
    for (auto it = current.cbegin(); it != current.cend(); ++it) {
        if (!found.words.contains(it.key()))
            out.append(Word{it.key(), -1, it.value(), false, true});
    }
    std::sort(out.begin(), out.end(), [](const Word &a, const Word &b) { return a.word < b.word; });
    return out;
}

QHash<QString, InboxState> statusesOf(const QList<Word> &words)
{
    QHash<QString, InboxState> out;
    for (const Word &w : words) {
        if (w.state != InboxState::Unknown && w.word != u"NULL"_s)
            out.insert(w.word, w.state);
    }
    return out;
}

QString firstWordIn(const QList<Word> &words, InboxState state)
{
    for (const Word &w : words) {
        if (w.state == state && w.word != u"NULL"_s)
            return w.word;
    }
    return {};
}

OutboxMapping suggestOutbox(const QHash<QString, QString> &types)
{
    // The inbox's suggestion already knows status and timestamp columns by name and type; an outbox's
    // "created" is its first-seen column, or the only timestamp it has.
    const InboxMapping m = InboxDiscovery::suggestColumns(types);
    OutboxMapping out;
    out.statusColumn = m.statusColumn;
    out.createdColumn = !m.firstSeenColumn.isEmpty() ? m.firstSeenColumn : m.updatedColumn;
    return out;
}

QString guessPendingWord(const QStringList &words)
{
    static const QStringList kPending{u"pending"_s, u"new"_s,     u"unsent"_s,  u"queued"_s,
                                      u"ready"_s,   u"created"_s, u"waiting"_s, u"open"_s};
    for (const QString &candidate : kPending) {
        for (const QString &w : words) {
            if (w.compare(candidate, Qt::CaseInsensitive) == 0)
                return w;
        }
    }
    for (const QString &w : words) {
        if (w.contains(u"pend"_s, Qt::CaseInsensitive) || w.contains(u"queue"_s, Qt::CaseInsensitive))
            return w;
    }
    return {};
}

QString problem(const InboxMapping &draft, const QStringList &taken)
{
    if (draft.name.trimmed().isEmpty())
        return QCoreApplication::translate("InboxMappingDraft", "Name the consumer this inbox belongs to.");
    if (taken.contains(draft.name))
        return QCoreApplication::translate("InboxMappingDraft",
                                           "Another mapping is already named “%1”: one mapping per consumer.")
            .arg(draft.name);
    if (draft.table.isEmpty())
        return QCoreApplication::translate("InboxMappingDraft", "Pick a table.");
    const QString invalid = draft.validate();
    if (!invalid.isEmpty())
        return invalid;
    if (draft.statuses.isEmpty())
        return QCoreApplication::translate("InboxMappingDraft",
                                           "Map at least one status word to a Berth state.");
    if (draft.outbox.isConfigured()
        && (draft.outbox.statusColumn.isEmpty() || draft.outbox.createdColumn.isEmpty()
            || draft.outbox.pendingStatus.isEmpty()))
        return QCoreApplication::translate(
            "InboxMappingDraft", "The outbox needs its status and created columns and the pending word.");
    return {};
}
} // namespace InboxMappingDraft
