#pragma once

#include "services/kafka/kafkatypes.h"

#include <QHash>

#include <vector>

// A fixed-capacity ring of samples, oldest first; pushing onto a full ring drops the oldest. One
// contiguous allocation of `capacity` items, so a hundred thousand rings cost what their samples cost.
template <typename T> class SampleRing {
public:
    explicit SampleRing(int capacity = 1)
        : m_capacity(std::max(1, capacity))
    {
    }
    int size() const { return int(m_items.size()); }
    bool empty() const { return m_items.empty(); }
    int capacity() const { return m_capacity; }
    const T &operator[](int i) const { return m_items[size_t((m_head + i) % m_items.size())]; }
    const T &front() const { return (*this)[0]; }
    const T &back() const { return (*this)[size() - 1]; }
    void push(const T &item)
    {
        if (m_items.capacity() < size_t(m_capacity))
            m_items.reserve(size_t(m_capacity));
        if (size() < m_capacity) {
            m_items.push_back(item);
            return;
        }
        m_items[size_t(m_head)] = item;
        m_head = (m_head + 1) % m_capacity;
    }
    void clear()
    {
        m_items.clear();
        m_head = 0;
    }
    // Keeps the newest `capacity` samples.
    void setCapacity(int capacity)
    {
        capacity = std::max(1, capacity);
        if (capacity == m_capacity)
            return;
        std::vector<T> kept;
        kept.reserve(size_t(capacity));
        for (int i = std::max(0, size() - capacity); i < size(); ++i)
            kept.push_back((*this)[i]);
        m_items.swap(kept);
        m_items.shrink_to_fit();
        m_head = 0;
        m_capacity = capacity;
    }

private:
    std::vector<T> m_items;
    int m_head = 0; // index of the oldest item once the ring is full
    int m_capacity;
};

// What the sampler remembers between samples, on its own thread (ARCHITECTURE.md, Performance notes):
// - each partition's end offset over time, for time-lag interpolation: every sample for the last
//   `fineSamples` samples, and beyond that one point a minute for `coarseMinutes`, so an old committed
//   offset is still dated without a peek while the memory per partition stays small;
// - each group partition's committed offset and lag for the status rules: only as many samples as the
//   rules look back (`setProgressCapacity`), plus when the committed offset last moved. There can be
//   hundreds of thousands of group partitions, so this part must stay a few hundred bytes each.
class LagHistory final {
public:
    struct Point {
        qint64 timeMs;
        qint64 offset;
    };
    struct Progress {
        qint64 timeMs;
        qint64 committed; // -1: none
        qint64 lag;
    };
    // The end-offset points of one partition, oldest first: the coarse points older than the fine ones,
    // then the fine ones.
    class Ends {
    public:
        int size() const { return m_olderCoarse + (m_fine ? m_fine->size() : 0); }
        bool empty() const { return size() == 0; }
        const Point &operator[](int i) const { return i < m_olderCoarse ? (*m_coarse)[i] : (*m_fine)[i - m_olderCoarse]; }
        const Point &front() const { return (*this)[0]; }
        const Point &back() const { return (*this)[size() - 1]; }

    private:
        friend class LagHistory;
        const SampleRing<Point> *m_coarse = nullptr;
        const SampleRing<Point> *m_fine = nullptr;
        int m_olderCoarse = 0;
    };
    struct GroupProgress {
        SampleRing<Progress> samples;
        qint64 committedSinceMs = -1; // when the committed offset took its current value (as far as seen)
    };

    static constexpr int defaultFineSamples = 120;   // 10 min at the default 5 s clock
    static constexpr int defaultCoarseMinutes = 360; // 6 h at one point a minute
    explicit LagHistory(int fineSamples = defaultFineSamples, int coarseMinutes = defaultCoarseMinutes)
        : m_fineSamples(fineSamples)
        , m_coarseMinutes(coarseMinutes)
    {
    }

    void recordEnd(const TopicPartition &tp, qint64 timeMs, qint64 end);
    void recordProgress(const QString &group, const TopicPartition &tp, const Progress &progress);
    // How many samples each group partition keeps: what the status rules look back over.
    void setProgressCapacity(int samples);

    // When did the end offset pass `offset`? Interpolated between the two samples around it; -1 when the
    // offset is older than the remembered history (or the history is too short to say).
    qint64 timeOfOffset(const TopicPartition &tp, qint64 offset) const;
    Ends ends(const TopicPartition &tp) const;
    const GroupProgress &progress(const QString &group, const TopicPartition &tp) const;
    // The topics a group has committed to in the remembered samples (the sampler asks brokers that cannot
    // list a group's offsets only for these).
    QStringList topicsOf(const QString &group) const { return m_groupTopics.value(group); }
    // Forget partitions not seen in the latest sample (topics deleted, groups gone).
    void retainOnly(const QSet<TopicPartition> &partitions, const QSet<QPair<QString, TopicPartition>> &groupPartitions);
    qsizetype groupPartitionCount() const { return m_progress.size(); }
    // Whether the brokers answered a group's "all committed partitions" question last time.
    enum class Answer { Unknown, Yes, No };
    Answer brokersAnswerAllPartitions() const { return m_answersAll; }
    void setBrokersAnswerAllPartitions(Answer answer) { m_answersAll = answer; }

private:
    struct EndRings {
        SampleRing<Point> fine;
        SampleRing<Point> coarse;
    };
    int m_fineSamples;
    int m_coarseMinutes;
    int m_progressCapacity = 25;
    QHash<TopicPartition, EndRings> m_ends;
    QHash<QPair<QString, TopicPartition>, GroupProgress> m_progress;
    QHash<QString, QStringList> m_groupTopics;
    Answer m_answersAll = Answer::Unknown;
};
