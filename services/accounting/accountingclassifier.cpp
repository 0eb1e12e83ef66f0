#include "services/accounting/accountingclassifier.h"

#include "services/payload/payloadmask.h"

#include <algorithm>
#include <limits>

using namespace Qt::StringLiterals;

QString accountClassKey(AccountClass c)
{
    switch (c) {
    case AccountClass::Processed:
        return u"processed"_s;
    case AccountClass::Duplicate:
        return u"duplicate"_s;
    case AccountClass::InFlight:
        return u"inFlight"_s;
    case AccountClass::DeadLettered:
        return u"deadLettered"_s;
    case AccountClass::Parked:
        return u"parked"_s;
    case AccountClass::Skipped:
        return u"skipped"_s;
    case AccountClass::NotConsumed:
        return u"notConsumed"_s;
    case AccountClass::Aborted:
        return u"aborted"_s;
    case AccountClass::Unaccounted:
        return u"unaccounted"_s;
    }
    return {};
}

bool accountClassFromKey(QStringView key, AccountClass *c)
{
    for (int i = 0; i < AccountClassCount; ++i) {
        if (accountClassKey(AccountClass(i)) == key) {
            *c = AccountClass(i);
            return true;
        }
    }
    return false;
}

QStringList AccountNote::names(quint16 notes)
{
    static const char *const kNames[Count] = {
        "noKey",         "notJson",    "noSequence",        "inboxUnreachable",
        "unknownStatus", "unverified", "keyPayloadDiffers", "tombstone",       "keyNotInboxType"};
    QStringList out;
    for (int i = 0; i < Count; ++i) {
        if (notes & (1u << i))
            out << QString::fromLatin1(kNames[i]);
    }
    return out;
}

QString sequenceKindKey(SequenceFinding::Kind kind)
{
    switch (kind) {
    case SequenceFinding::Kind::Gap:
        return u"gap"_s;
    case SequenceFinding::Kind::OutOfOrder:
        return u"outOfOrder"_s;
    case SequenceFinding::Kind::Repeat:
        return u"repeat"_s;
    case SequenceFinding::Kind::DlqAndContinue:
        return u"dlqAndContinue"_s;
    }
    return {};
}

QString AccountingResult::recordKeyText(quint32 id) const
{
    return !id ? QString() : recordKeyMasked ? QString::fromLatin1(PayloadMask::kMasked) : QString::fromUtf8(key(id));
}

QString AccountingResult::idempotencyKeyText(quint32 id) const
{
    return !id                     ? QString()
           : idempotencyKeyMasked ? QString::fromLatin1(PayloadMask::kMasked)
                                  : QString::fromUtf8(key(id));
}

qint64 AccountingResult::sequenceCount(SequenceFinding::Kind kind) const
{
    return std::count_if(sequence.cbegin(), sequence.cend(),
                         [kind](const SequenceFinding &f) { return f.kind == kind; });
}

bool AccountingClassifier::deliveredBefore(const AccountedRecord &a, const AccountedRecord &b)
{
    if (a.partition == b.partition)
        return a.offset < b.offset;
    if (a.timestampMs != b.timestampMs)
        return a.timestampMs < b.timestampMs;
    return a.partition < b.partition;
}

void AccountingClassifier::classify(AccountingResult &result, const AccountingEvidence &evidence)
{
    const auto isAborted = [&evidence](const AccountedRecord &r) {
        if (!evidence.readCommitted)
            return false;
        const auto part = evidence.aborted.constFind(r.partition);
        return part != evidence.aborted.cend() && part->contains(r.offset);
    };
    // What is known of each key, by key id (ids are dense): one byte a key, read once per record instead
    // of a hash look-up per question.
    enum : quint8 { HasRow = 0x80, Unanswered = 0x40, DeadLetteredKey = 0x20, Uncastable = 0x10, StateBits = 0x0f };
    std::vector<quint8> keyFacts(result.keys.size(), 0);
    const auto factsOf = [&keyFacts](quint32 id) -> quint8 { return id < keyFacts.size() ? keyFacts[id] : 0; };
    for (quint32 id = 0; id < std::min(keyFacts.size(), evidence.inbox.idBound()); ++id) {
        if (evidence.inbox.contains(id))
            keyFacts[id] |= quint8(HasRow | (quint8(evidence.inbox.value(id)) & StateBits));
    }
    for (const quint32 id : evidence.inboxUnanswered) {
        if (id < keyFacts.size())
            keyFacts[id] |= Unanswered;
    }
    for (const quint32 id : evidence.inboxUncastable) {
        if (id < keyFacts.size())
            keyFacts[id] |= Uncastable;
    }
    for (const quint32 id : evidence.deadLetteredKeys) {
        if (id < keyFacts.size())
            keyFacts[id] |= DeadLetteredKey;
    }
    const auto completed = [&](quint32 id) {
        const quint8 f = factsOf(id);
        return (f & HasRow) && InboxState(f & StateBits) == InboxState::Completed;
    };

    // The first delivered record of each key whose inbox row is completed: it is the processed one. By
    // key id, so a million keys cost one vector.
    constexpr size_t none = std::numeric_limits<size_t>::max();
    std::vector<size_t> firstOfKey(evidence.inbox.isEmpty() ? 0 : result.keys.size(), none);
    for (size_t i = 0; i < result.records.size() && !firstOfKey.empty(); ++i) {
        const AccountedRecord &r = result.records[i];
        if (!r.idempotencyKey || r.idempotencyKey >= firstOfKey.size() || !completed(r.idempotencyKey))
            continue;
        if (isAborted(r))
            continue;
        size_t &first = firstOfKey[r.idempotencyKey];
        if (first == none || deliveredBefore(r, result.records[first]))
            first = i;
    }

    result.counts.fill(0);
    result.noteCounts.fill(0);
    result.notes = 0;
    result.minutes.clear();
    auto minute = result.minutes.end();
    // Per partition, looked up when the partition changes (records come partition by partition).
    int partition = -1;
    qint64 committed = -1;
    const QSet<qint64> *named = nullptr;
    for (size_t i = 0; i < result.records.size(); ++i) {
        AccountedRecord &r = result.records[i];
        if (r.partition != partition || i == 0) {
            partition = r.partition;
            committed = evidence.committed.value(partition, -1);
            const auto at = evidence.deadLetteredAt.constFind(partition);
            named = at == evidence.deadLetteredAt.cend() ? nullptr : &*at;
        }
        const quint8 facts = factsOf(r.idempotencyKey);
        r.notes &=
            ~quint16(AccountNote::InboxUnreachable | AccountNote::UnknownStatus | AccountNote::Unverified
                     | AccountNote::KeyNotInboxType);
        const auto decide = [&]() -> AccountClass {
            if (isAborted(r))
                return AccountClass::Aborted;
            // Without a key the inbox cannot be asked: the record is judged by the offsets alone.
            bool verified = evidence.hasInbox && r.idempotencyKey;
            if (evidence.hasInbox && r.idempotencyKey) {
                if (facts & Unanswered) {
                    r.notes |= AccountNote::InboxUnreachable;
                    verified = false;
                } else if (facts & Uncastable) {
                    // No row can hold the key: judged as a key without a row, and said why.
                    r.notes |= AccountNote::KeyNotInboxType;
                } else if (facts & HasRow) {
                    switch (InboxState(facts & StateBits)) {
                    case InboxState::Completed:
                        return r.idempotencyKey < firstOfKey.size() && firstOfKey[r.idempotencyKey] == i
                                   ? AccountClass::Processed
                                   : AccountClass::Duplicate;
                    case InboxState::Parked:
                    case InboxState::FailedTerminal:
                        return AccountClass::Parked;
                    case InboxState::Skipped:
                        return AccountClass::Skipped;
                    case InboxState::InProgress:
                    case InboxState::FailedRetryable:
                        return AccountClass::InFlight;
                    case InboxState::Unknown:
                        r.notes |= AccountNote::UnknownStatus;
                        verified = false;
                        break;
                    }
                }
            }
            if ((named && named->contains(r.offset)) || (r.idempotencyKey && (facts & DeadLetteredKey)))
                return AccountClass::DeadLettered;
            if (r.offset < committed) {
                if (verified)
                    return AccountClass::Unaccounted;
                r.notes |= AccountNote::Unverified;
                return AccountClass::Processed;
            }
            return AccountClass::NotConsumed;
        };
        r.cls = decide();
        ++result.counts[size_t(r.cls)];
        if (r.timestampMs >= 0) {
            const qint64 m = r.timestampMs / 60'000;
            if (minute == result.minutes.end() || minute->first != m)
                minute = result.minutes.try_emplace(m).first;
            ++minute->second[size_t(r.cls)];
        }
        if (r.notes) {
            ++result.notes;
            for (int b = 0; b < AccountNote::Count; ++b) {
                if (r.notes & (1u << b))
                    ++result.noteCounts[size_t(b)];
            }
        }
    }
}

QSet<qint64> TransactionWindow::abortedOffsets(const QList<qint64> &uncommitted,
                                               const QSet<qint64> &committed)
{
    QSet<qint64> aborted;
    for (const qint64 o : uncommitted) {
        if (!committed.contains(o))
            aborted.insert(o);
    }
    return aborted;
}

bool TransactionWindow::caughtUpBehindMarkers(qint64 committed, qint64 high, qint64 lastRecord)
{
    return committed >= 0 && committed < high && lastRecord < committed;
}
