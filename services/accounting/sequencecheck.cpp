#include "services/accounting/sequencecheck.h"

#include "services/accounting/accountingclassifier.h"
#include "services/accounting/sequencetracker.h"

#include <algorithm>
#include <span>

namespace {
bool isProcessed(AccountClass c)
{
    return c == AccountClass::Processed || c == AccountClass::Duplicate;
}

bool isSetAside(AccountClass c)
{
    return c == AccountClass::DeadLettered || c == AccountClass::Parked;
}

// The records of one key in delivery order: each partition's run is already in offset order; the runs
// are merged by timestamp.
template <typename Indexes>
std::vector<size_t> deliveryOrder(const AccountingResult &result, const Indexes &indexes)
{
    std::vector<std::vector<size_t>> runs;
    for (const size_t i : indexes) {
        auto run = std::find_if(runs.begin(), runs.end(), [&](const std::vector<size_t> &r) {
            return result.records[r.front()].partition == result.records[i].partition;
        });
        if (run == runs.end())
            runs.push_back({i});
        else
            run->push_back(i);
    }
    if (runs.size() == 1)
        return runs.front();
    std::vector<size_t> heads(runs.size(), 0);
    std::vector<size_t> out;
    const size_t count = size_t(std::distance(indexes.begin(), indexes.end()));
    out.reserve(count);
    while (out.size() < count) {
        int best = -1;
        for (size_t r = 0; r < runs.size(); ++r) {
            if (heads[r] >= runs[r].size())
                continue;
            if (best < 0
                || AccountingClassifier::deliveredBefore(
                    result.records[runs[r][heads[r]]],
                    result.records[runs[size_t(best)][heads[size_t(best)]]]))
                best = int(r);
        }
        out.push_back(runs[size_t(best)][heads[size_t(best)]++]);
    }
    return out;
}
} // namespace

QList<SequenceFinding> SequenceCheck::run(const AccountingResult &result)
{
    // Record indexes per ordering key, in storage order (per partition in offset order): a counting sort
    // by key id, two flat vectors however many keys. Without sequence numbers only a key with a record
    // set aside can show anything (a DLQ-and-continue break); the others are left out.
    bool numbered = false;
    size_t keyCount = result.keys.size();
    for (const AccountedRecord &r : result.records)
        keyCount = std::max(keyCount, size_t(r.recordKey) + 1);
    std::vector<quint32> start(keyCount + 1, 0);
    std::vector<bool> setAsideKey(keyCount, false);
    for (const AccountedRecord &r : result.records) {
        if (!r.recordKey)
            continue;
        ++start[r.recordKey + 1];
        numbered = numbered || r.sequence != AccountedRecord::NoSequence;
        if (isSetAside(r.cls))
            setAsideKey[r.recordKey] = true;
    }
    for (size_t k = 1; k < start.size(); ++k)
        start[k] += start[k - 1];
    std::vector<quint32> byKey(start.back());
    {
        std::vector<quint32> fill(start.begin(), start.end() - 1);
        for (size_t i = 0; i < result.records.size(); ++i) {
            const quint32 key = result.records[i].recordKey;
            if (key)
                byKey[fill[key]++] = quint32(i);
        }
    }

    QList<SequenceFinding> findings;
    for (quint32 key = 1; key + 1 < start.size(); ++key) {
        if (start[key] == start[key + 1] || (!numbered && !setAsideKey[key]))
            continue;
        const std::vector<size_t> order =
            deliveryOrder(result, std::span(byKey.data() + start[key], start[key + 1] - start[key]));
        // Marks are record indexes.
        const auto finding = [&](SequenceFinding::Kind kind, SequenceTracker::Mark at, SequenceTracker::Mark before) {
            const AccountedRecord &r = result.records[size_t(at)];
            SequenceFinding f;
            f.kind = kind;
            f.key = key;
            f.partition = r.partition;
            f.offset = r.offset;
            f.sequence = r.sequence;
            if (before != SequenceTracker::NoMark) {
                const AccountedRecord &b = result.records[size_t(before)];
                f.previousPartition = b.partition;
                f.previousOffset = b.offset;
                f.acrossPartitions = b.partition != r.partition;
            }
            return f;
        };
        const auto gapFinding = [&](const SequenceTracker::Gap &g) {
            SequenceFinding f = finding(SequenceFinding::Kind::Gap, g.after, g.before);
            f.sequence = g.afterSequence;
            f.expected = g.from;
            f.missing = g.to - g.from + 1;
            return f;
        };

        SequenceTracker tracker;
        QList<SequenceTracker::Gap> settled;
        for (const size_t i : order) {
            const AccountedRecord &r = result.records[i];
            if (const auto b = tracker.observeOutcome(isSetAside(r.cls), isProcessed(r.cls), r.sequence, i)) {
                SequenceFinding f = finding(SequenceFinding::Kind::DlqAndContinue, i, b->previous);
                f.sequence = b->sequence;
                findings.append(f);
            }
            if (r.sequence == AccountedRecord::NoSequence)
                continue;
            const auto b = tracker.observe(r.sequence, i, &settled);
            if (!b || b->kind == SequenceFinding::Kind::Gap) // gaps: what is still missing at the end
                continue;
            SequenceFinding f = finding(b->kind, i, b->previous);
            f.expected = b->expected;
            findings.append(f);
        }
        for (const SequenceTracker::Gap &g : std::as_const(settled))
            findings.append(gapFinding(g));
        for (const SequenceTracker::Gap &g : tracker.openGaps())
            findings.append(gapFinding(g));
    }
    return findings;
}
