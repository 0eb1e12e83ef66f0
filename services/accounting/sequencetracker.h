#pragma once

#include "services/accounting/accountingtypes.h"

#include <QList>

#include <array>
#include <optional>

// One ordering key's order state, fed its records one at a time in delivery order (seed 004; ARCHITECTURE.md,
// Contracts: Delivery accounting). The one definition of order breaks that a delivery accounting
// (SequenceCheck, over a window) and the live order tail (OrderTail, as records arrive) both apply:
//  - a number above the highest seen + 1 opens a gap (the numbers skipped);
//  - a number already seen is a repeat;
//  - a number below the highest seen is out of order, and fills the gap it falls in;
//  - a record set aside (dead-lettered or parked) followed by a processed record of the key is a
//    DLQ-and-continue break (seed 000 §16), reported once per set-aside record.
// Memory per key is bounded (about 120 bytes): numbers are remembered exactly within Window below the
// highest (further below, a number is judged out of order, since a repeat cannot be told from a late
// arrival there), and at most MaxOpenGaps ranges stay open for late arrivals to fill; an older one is
// settled as it is.
class SequenceTracker final {
public:
    using Mark = quint64; // the caller's handle for the record (a record index, packed coordinates)
    static constexpr Mark NoMark = ~Mark(0);
    static constexpr int Window = 64;
    static constexpr int MaxOpenGaps = 4;

    struct Break {
        SequenceFinding::Kind kind = SequenceFinding::Kind::Gap;
        qint64 sequence = 0; // the record's number (a DLQ break: the set-aside record's)
        qint64 expected = 0; // gap: the first missing number; out of order, repeat: the highest seen
        qint64 missing = 0;  // gap: how many numbers are missing
        Mark previous = NoMark; // the record it is judged against (NoMark: not remembered)
    };
    // Numbers missing between two records: `before` carried from - 1, `after` the number that jumped.
    struct Gap {
        qint64 from = 0;
        qint64 to = 0; // inclusive
        Mark before = NoMark;
        Mark after = NoMark;
        qint64 afterSequence = 0;
    };

    // A record's number: the break it shows, if any. A jump reports the gap it opens (a live reader counts
    // it at once); `settled` receives an open gap pushed out by a newer one, as it stands.
    std::optional<Break> observe(qint64 sequence, Mark mark, QList<Gap> *settled = nullptr);
    // A record's outcome, where it is known: a processed record after one set aside is a DLQ-and-continue
    // break.
    std::optional<Break> observeOutcome(bool setAside, bool processed, qint64 sequence, Mark mark);
    // The gaps still open: what is missing at the end of a window.
    QList<Gap> openGaps() const;
    bool numbered() const { return m_highestMark != NoMark; }

private:
    void fill(qint64 sequence, QList<Gap> *settled);
    qint64 m_highest = 0;
    Mark m_highestMark = NoMark;
    quint64 m_seenBelow = 0; // bit i: highest - 1 - i was seen
    std::array<Gap, MaxOpenGaps> m_gaps{};
    int m_gapCount = 0;
    Mark m_setAside = NoMark;
    qint64 m_setAsideSequence = 0;
};
