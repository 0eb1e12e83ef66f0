#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QList>
#include <QStringList>

#include <vector>

// Paths into a payload's display JSON (`PayloadMask::pathSteps` split: member names and "[i]" indexes), laid
// out as a tree so that a schema decoder can walk a body once and write the display JSON of only the values
// they lead to (the field filter's fast path, ARCHITECTURE.md, Field filters). Each distinct path is a slot;
// a path under another selected one is not walked by the decoder but found afterwards in its ancestor's
// display JSON (`Derived`). Immutable once built: one instance serves many threads.
class PathSelection final {
public:
    // A step's child: a member name (a record's field, a map's key) or an array index.
    struct Node {
        std::vector<std::pair<QByteArray, int>> names;
        std::vector<std::pair<qint64, int>> indexes;
        int slot = -1;          // the value here is selected
        std::vector<int> under; // every slot at or below this node, reset when a map key repeats
        int childByName(QByteArrayView name) const
        {
            for (const auto &[n, at] : names) {
                if (n == name)
                    return at;
            }
            return -1;
        }
        int childByIndex(qint64 index) const
        {
            for (const auto &[i, at] : indexes) {
                if (i == index)
                    return at;
            }
            return -1;
        }
        bool hasChildren() const { return !names.empty() || !indexes.empty(); }
    };
    // A slot below another selected one: its value is read from the ancestor's display JSON.
    struct Derived {
        int slot = -1;
        int ancestor = -1;
        QList<QByteArray> steps; // the rest of the path, UTF-8
    };

    // One slot per distinct path, in the order given (`paths` as PayloadMask::pathSteps splits them).
    explicit PathSelection(const QList<QStringList> &paths);
    PathSelection() = default;

    int slotCount() const { return m_slots; }
    const Node &node(int at) const { return m_nodes[size_t(at)]; }
    static constexpr int kRoot = 0;
    const std::vector<Derived> &derived() const { return m_derived; }

    // What a decoder found for each slot: a span of `json` (display JSON), or nothing. Reused between
    // records: clear() keeps the capacity.
    struct Values {
        struct Span {
            qsizetype begin = -1; // -1: the path leads nowhere in this payload
            qsizetype end = -1;
        };
        QByteArray json;
        std::vector<Span> spans;
        // A map key the display JSON writes with escapes was on a path: the text reader's answer may
        // differ, so the caller decodes the whole payload instead.
        bool unsure = false;
        void clear(int slots)
        {
            json.truncate(0);
            spans.assign(size_t(slots), Span{});
            unsure = false;
        }
        bool found(int slot) const { return spans[size_t(slot)].begin >= 0; }
        QByteArrayView at(int slot) const
        {
            const Span s = spans[size_t(slot)];
            return QByteArrayView(json).sliced(s.begin, s.end - s.begin);
        }
    };

private:
    std::vector<Node> m_nodes;
    std::vector<Derived> m_derived;
    int m_slots = 0;
};
