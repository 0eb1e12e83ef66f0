#include "pathselection.h"

#include <QHash>

#include <algorithm>
#include <numeric>

PathSelection::PathSelection(const QList<QStringList> &paths)
{
    m_nodes.emplace_back(); // the root
    // Shorter paths first, so a path under a selected one finds its ancestor already selected.
    std::vector<qsizetype> order(size_t(paths.size()));
    std::iota(order.begin(), order.end(), qsizetype(0));
    std::stable_sort(order.begin(), order.end(),
                     [&](qsizetype a, qsizetype b) { return paths[a].size() < paths[b].size(); });
    QHash<QStringList, int> slotOf;
    for (const QStringList &p : paths) {
        if (!slotOf.contains(p))
            slotOf.insert(p, m_slots++);
    }
    QHash<QStringList, bool> placed;
    for (const qsizetype i : order) {
        const QStringList &steps = paths[i];
        if (placed.contains(steps))
            continue;
        placed.insert(steps, true);
        const int slot = slotOf.value(steps);
        int at = kRoot;
        bool derived = false;
        for (qsizetype s = 0; s < steps.size(); ++s) {
            if (m_nodes[size_t(at)].slot >= 0) {
                Derived d;
                d.slot = slot;
                d.ancestor = m_nodes[size_t(at)].slot;
                for (qsizetype r = s; r < steps.size(); ++r)
                    d.steps.append(steps[r].toUtf8());
                m_derived.push_back(std::move(d));
                derived = true;
                break;
            }
            const QString &step = steps[s];
            int next = -1;
            if (step.startsWith(u'[')) {
                const qint64 index = QStringView(step).sliced(1, step.size() - 2).toLongLong();
                next = m_nodes[size_t(at)].childByIndex(index);
                if (next < 0) {
                    next = int(m_nodes.size());
                    m_nodes.emplace_back();
                    m_nodes[size_t(at)].indexes.emplace_back(index, next);
                }
            } else {
                const QByteArray name = step.toUtf8();
                next = m_nodes[size_t(at)].childByName(name);
                if (next < 0) {
                    next = int(m_nodes.size());
                    m_nodes.emplace_back();
                    m_nodes[size_t(at)].names.emplace_back(name, next);
                }
            }
            at = next;
        }
        if (!derived) {
            if (m_nodes[size_t(at)].slot >= 0) {
                // Unreachable: distinct paths end at distinct nodes.
                continue;
            }
            m_nodes[size_t(at)].slot = slot;
        }
    }
    // Children are created after their parents: walking backwards collects every node's slots below it.
    for (size_t n = m_nodes.size(); n-- > 0;) {
        Node &node = m_nodes[n];
        if (node.slot >= 0)
            node.under.push_back(node.slot);
        for (const auto &[name, child] : node.names)
            node.under.insert(node.under.end(), m_nodes[size_t(child)].under.begin(),
                              m_nodes[size_t(child)].under.end());
        for (const auto &[index, child] : node.indexes)
            node.under.insert(node.under.end(), m_nodes[size_t(child)].under.begin(),
                              m_nodes[size_t(child)].under.end());
    }
}
