#pragma once

#include "services/inbox/inboxmapping.h"

#include <QtGlobal>

#include <algorithm>
#include <initializer_list>
#include <utility>
#include <vector>

// What the inbox answered per key id of an accounting run (ARCHITECTURE.md, Data flows: Delivery
// accounting): the state of the key's row, dense by key id (ids are dense), one byte a key instead of a
// hash node, so a million answers are a megabyte and inserting one is a store.
class InboxKeyStates final {
public:
    InboxKeyStates() = default;
    InboxKeyStates(std::initializer_list<std::pair<quint32, InboxState>> states)
    {
        for (const auto &[id, state] : states)
            insert(id, state);
    }

    // A key with several rows keeps a completed one over the others.
    void merge(quint32 id, InboxState state)
    {
        if (!contains(id) || state == InboxState::Completed)
            insert(id, state);
    }
    void insert(quint32 id, InboxState state)
    {
        if (id >= m_states.size())
            m_states.resize(std::max<size_t>(size_t(id) + 1, m_states.size() + m_states.size() / 2), 0);
        m_count += m_states[id] == 0;
        m_states[id] = quint8(int(state) + 1);
    }
    bool contains(quint32 id) const { return id < m_states.size() && m_states[id]; }
    InboxState value(quint32 id, InboxState absent = InboxState::Unknown) const
    {
        return contains(id) ? InboxState(m_states[id] - 1) : absent;
    }
    qsizetype size() const { return m_count; }
    bool isEmpty() const { return m_count == 0; }
    // The largest id with room in the table plus one (every answered id is below it).
    size_t idBound() const { return m_states.size(); }

private:
    std::vector<quint8> m_states; // 0: no row; else the state + 1
    qsizetype m_count = 0;
};
