#include "services/accounting/sequencetracker.h"

#include <algorithm>
#include <limits>

std::optional<SequenceTracker::Break> SequenceTracker::observe(qint64 sequence, Mark mark, QList<Gap> *settled)
{
    if (m_highestMark == NoMark) {
        m_highest = sequence;
        m_highestMark = mark;
        return std::nullopt;
    }
    if (sequence > m_highest) {
        // Unsigned: the distance between any two numbers fits, whatever a producer wrote.
        const quint64 step = quint64(sequence) - quint64(m_highest);
        // The old highest becomes bit step - 1; what was below it moves down with it.
        m_seenBelow = step > quint64(Window) ? 0
                                              : ((step == quint64(Window) ? 0 : m_seenBelow << step)
                                                 | (quint64(1) << (step - 1)));
        std::optional<Break> out;
        if (step > 1) {
            if (m_gapCount == MaxOpenGaps) {
                if (settled)
                    settled->append(m_gaps[0]);
                std::move(m_gaps.begin() + 1, m_gaps.end(), m_gaps.begin());
                --m_gapCount;
            }
            m_gaps[size_t(m_gapCount++)] = {m_highest + 1, sequence - 1, m_highestMark, mark, sequence};
            out = Break{SequenceFinding::Kind::Gap, sequence, m_highest + 1,
                        qint64(std::min<quint64>(step - 1, quint64(std::numeric_limits<qint64>::max()))),
                        m_highestMark};
        }
        m_highest = sequence;
        m_highestMark = mark;
        return out;
    }
    if (sequence == m_highest)
        return Break{SequenceFinding::Kind::Repeat, sequence, m_highest, 0, m_highestMark};
    const quint64 below = quint64(m_highest) - quint64(sequence) - 1;
    if (below < quint64(Window)) {
        const quint64 bit = quint64(1) << below;
        if (m_seenBelow & bit)
            return Break{SequenceFinding::Kind::Repeat, sequence, m_highest, 0, NoMark};
        m_seenBelow |= bit;
    }
    fill(sequence, settled);
    return Break{SequenceFinding::Kind::OutOfOrder, sequence, m_highest, 0, m_highestMark};
}

void SequenceTracker::fill(qint64 sequence, QList<Gap> *settled)
{
    for (int i = 0; i < m_gapCount; ++i) {
        Gap &g = m_gaps[size_t(i)];
        if (sequence < g.from || sequence > g.to)
            continue;
        if (g.from == g.to) { // filled: gone
            std::move(m_gaps.begin() + i + 1, m_gaps.begin() + m_gapCount, m_gaps.begin() + i);
            --m_gapCount;
        } else if (sequence == g.from) {
            ++g.from;
        } else if (sequence == g.to) {
            --g.to;
        } else { // split in two, in the place of the whole; beyond the bound the oldest is settled
            std::array<Gap, MaxOpenGaps + 1> all{};
            int n = 0;
            for (int j = 0; j < m_gapCount; ++j) {
                if (j != i) {
                    all[size_t(n++)] = m_gaps[size_t(j)];
                    continue;
                }
                Gap lower = g, upper = g;
                lower.to = sequence - 1;
                upper.from = sequence + 1;
                all[size_t(n++)] = lower;
                all[size_t(n++)] = upper;
            }
            int first = 0;
            if (n > MaxOpenGaps) {
                if (settled)
                    settled->append(all[0]);
                first = 1;
            }
            m_gapCount = n - first;
            std::copy(all.begin() + first, all.begin() + n, m_gaps.begin());
        }
        return;
    }
}

std::optional<SequenceTracker::Break> SequenceTracker::observeOutcome(bool setAside, bool processed, qint64 sequence,
                                                                      Mark mark)
{
    if (m_setAside != NoMark && processed) {
        const Break b{SequenceFinding::Kind::DlqAndContinue, m_setAsideSequence, 0, 0, m_setAside};
        m_setAside = NoMark;
        return b;
    }
    if (m_setAside == NoMark && setAside) {
        m_setAside = mark;
        m_setAsideSequence = sequence;
    }
    return std::nullopt;
}

QList<SequenceTracker::Gap> SequenceTracker::openGaps() const
{
    return QList<Gap>(m_gaps.begin(), m_gaps.begin() + m_gapCount);
}
