// The DLQ scan's own work per record, without Kafka: decoding the headers, interning the strings and
// grouping, over a million bench dead letters built in memory (in chunks, timed apart from building
// them, in CPU time). What bench_dlq's scan costs beyond reading the topic; steady and quick to run while
// tuning the index. Usage: bench_dlqindex [--quick] [--records N]

#include "benchdeadletters.h"
#include "benchfigure.h"
#include "services/dlq/dlqentrybuilder.h"
#include "services/dlq/failuregroups.h"
#include "services/support/memorypolicy.h"

#include <QCoreApplication>

#include <cstdio>
#include <ctime>
#include <memory>
#include <vector>

using namespace Qt::StringLiterals;

namespace {
// This thread's CPU time: the figure is the work, not what other processes on the machine take.
qint64 threadCpuNs()
{
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return qint64(t.tv_sec) * 1'000'000'000 + t.tv_nsec;
}
} // namespace

int main(int argc, char **argv)
{
    MemoryPolicy::apply(); // as berth does
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    const qint64 records = recordCount(args, 100'000, 1'000'000);

    auto pool = std::make_shared<StringPool>();
    DlqEntryBuilder builder(*pool);
    FailureGroups groups(*pool);
    constexpr qint64 kChunk = 10'000;
    std::vector<KafkaRecord> chunk;
    chunk.reserve(size_t(kChunk));
    std::vector<DlqIndexEntry> index;
    index.reserve(size_t(records));
    qint64 indexNs = 0;
    quint64 groupSum = 0; // keeps the work observable
    for (qint64 first = 0; first < records; first += kChunk) {
        chunk.clear();
        for (qint64 i = first; i < qMin(records, first + kChunk); ++i) {
            BenchDeadLetters::Letter l = BenchDeadLetters::letter(i);
            KafkaRecord r;
            r.partition = int(i % 417);
            r.offset = i / 417;
            r.timestampMs = 1'700'000'000'000 + i;
            r.key = l.key;
            r.keyIsNull = false;
            r.value = l.value;
            r.headers = l.headers;
            chunk.push_back(std::move(r));
        }
        const qint64 before = threadCpuNs();
        for (const KafkaRecord &r : chunk) {
            index.push_back(builder.build(r));
            groupSum += groups.add(index.back());
        }
        indexNs += threadCpuNs() - before;
    }
    pool->releaseLookup();
    std::fprintf(stderr, "# %lld records, %zu groups, %u strings, pool %.1f MB (group ids sum %llu)\n",
                 qlonglong(records), size_t(groups.groups().size()), pool->count(),
                 double(pool->memoryBytes()) / (1024 * 1024), (unsigned long long)groupSum);
    std::printf("FIGURE dlq_index_us_per_record %.3f us\n", double(indexNs) / 1e3 / double(records));
    std::printf("FIGURE dlq_index_cpu_s %.3f s\n", double(indexNs) / 1e9);
    return groups.groups().size() == 8 ? 0 : 1;
}
