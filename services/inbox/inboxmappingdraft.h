#pragma once

#include "services/inbox/inboxdiscovery.h"
#include "services/inbox/inboxmapping.h"

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

// The mapping editor's decisions, without widgets (ARCHITECTURE.md, Data flows: Inbox): which state each
// discovered status word gets before the operator confirms it, what an outbox's columns and pending word
// probably are, and what a draft still lacks before it can be saved. The dialog shows and edits these
// values; nothing here talks to a database.
namespace InboxMappingDraft {
// One status word as the editor lists it.
struct Word {
    QString word;     // raw text; "NULL" for rows without a status (always Unknown)
    qint64 rows = -1; // exact count when discovery could afford it, else -1
    InboxState state = InboxState::Unknown;
    bool seen = false;        // discovery found it in the table
    bool fromMapping = false; // the mapping being edited already states it (not a guess)
    // Flagged for the operator: Unknown (counted apart on the board), or stated but never seen.
    bool needsAttention() const { return state == InboxState::Unknown || !seen; }
    friend bool operator==(const Word &, const Word &) = default;
};

// The vocabulary to confirm: every discovered word, with the mapping's state where it states one and a
// guess (InboxDiscovery::guessState) otherwise; words the mapping states that discovery did not find are
// kept and marked unseen (a sample can miss rare words; a word may be gone). Sorted by word.
QList<Word> vocabulary(const InboxDiscovery::StatusWords &found, const QHash<QString, InboxState> &current);
// The statuses a mapping stores: every word with a state other than Unknown ("NULL" never: a row without
// a status stays Unknown). Unmapped words are left out, so the board counts them as Unknown.
QHash<QString, InboxState> statusesOf(const QList<Word> &words);
// The first word mapped to `state`, else empty (the skipped word a skip writes, a default release word).
QString firstWordIn(const QList<Word> &words, InboxState state);

// Outbox columns guessed from names and types: status (text), created (a timestamp Berth reads).
OutboxMapping suggestOutbox(const QHash<QString, QString> &types);
// The outbox word that means "not yet published" ("PENDING", "new", "unsent"...), else empty.
QString guessPendingWord(const QStringList &words);

// What stops the draft from being saved, in words; empty when it can be saved. `taken` are the other
// mappings' names (one mapping per consumer).
QString problem(const InboxMapping &draft, const QStringList &taken);
} // namespace InboxMappingDraft
