#include "services/accounting/sequencecheck.h"

#include "services/accounting/accountingclassifier.h"

#include <QHash>

#include <algorithm>

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
std::vector<size_t> deliveryOrder(const AccountingResult &result, const std::vector<size_t> &indexes)
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
    out.reserve(indexes.size());
    while (out.size() < indexes.size()) {
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
    // Record indexes per ordering key, in storage order (per partition in offset order).
    QHash<quint32, std::vector<size_t>> byKey;
    for (size_t i = 0; i < result.records.size(); ++i) {
        if (result.records[i].recordKey)
            byKey[result.records[i].recordKey].push_back(i);
    }
    QList<quint32> keys = byKey.keys();
    std::sort(keys.begin(), keys.end());

    QList<SequenceFinding> findings;
    for (const quint32 key : std::as_const(keys)) {
        const std::vector<size_t> order = deliveryOrder(result, byKey.value(key));
        const auto finding = [&](SequenceFinding::Kind kind, const AccountedRecord &r,
                                 const AccountedRecord *before) {
            SequenceFinding f;
            f.kind = kind;
            f.key = key;
            f.partition = r.partition;
            f.offset = r.offset;
            f.sequence = r.sequence;
            if (before) {
                f.previousPartition = before->partition;
                f.previousOffset = before->offset;
                f.acrossPartitions = before->partition != r.partition;
            }
            return f;
        };

        QHash<qint64, size_t> seen; // sequence -> the first record that carried it
        const AccountedRecord *highest = nullptr;
        const AccountedRecord *setAside = nullptr; // the earliest dead-lettered record not yet reported
        for (const size_t i : order) {
            const AccountedRecord &r = result.records[i];
            if (setAside && isProcessed(r.cls)) {
                findings.append(finding(SequenceFinding::Kind::DlqAndContinue, r, setAside));
                findings.back().sequence = setAside->sequence;
                setAside = nullptr;
            }
            if (!setAside && isSetAside(r.cls))
                setAside = &r;
            if (r.sequence == AccountedRecord::NoSequence)
                continue;
            if (const auto first = seen.constFind(r.sequence); first != seen.cend()) {
                SequenceFinding f = finding(SequenceFinding::Kind::Repeat, r, &result.records[*first]);
                f.expected = highest->sequence;
                findings.append(f);
                continue;
            }
            if (highest && r.sequence < highest->sequence) {
                SequenceFinding f = finding(SequenceFinding::Kind::OutOfOrder, r, highest);
                f.expected = highest->sequence;
                findings.append(f);
            }
            seen.insert(r.sequence, i);
            if (!highest || r.sequence > highest->sequence)
                highest = &r;
        }
        // Gaps: numbers between the lowest and the highest that no record of the window carries.
        QList<qint64> numbers = seen.keys();
        std::sort(numbers.begin(), numbers.end());
        for (qsizetype n = 1; n < numbers.size(); ++n) {
            if (numbers[n] - numbers[n - 1] <= 1)
                continue;
            const AccountedRecord &after = result.records[seen.value(numbers[n])];
            SequenceFinding f =
                finding(SequenceFinding::Kind::Gap, after, &result.records[seen.value(numbers[n - 1])]);
            f.expected = numbers[n - 1] + 1;
            f.missing = numbers[n] - numbers[n - 1] - 1;
            findings.append(f);
        }
    }
    return findings;
}
