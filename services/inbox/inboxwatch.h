#pragma once

#include "services/inbox/inboxboard.h"
#include "services/inbox/inboxmappingset.h"
#include "services/payload/keymask.h"

#include <QHash>
#include <QObject>
#include <QString>

#include <memory>
#include <vector>

class QTimer;
class JobTracker;

// Watches every mapped inbox table, each on its own clock (ARCHITECTURE.md, Data flows: Inbox): a
// table nobody has selected is read as often as the one on screen, so a stuck row or a growing outbox
// anywhere reaches boardReady, which alert rules and the checklist evidence consume as plain values.
// Each mapping's read is a JobTracker job with its own short connection to the mapping's database (and, for
// a huge table, the mapping's second session, kept connected across reads: InboxBoardHelperSession);
// a mapping whose previous read is still running skips a tick rather than piling reads up, and every
// statement runs under the statement timeout.
class InboxWatch final : public QObject {
    Q_OBJECT
public:
    static constexpr int DefaultIntervalMs = 15'000;

    explicit InboxWatch(QObject *parent = nullptr);
    ~InboxWatch() override;

    // Replaces what is watched and starts every mapping's clock (the first reads are spread over a
    // second, so a dozen tables do not connect at once).
    void setMappings(const InboxMappingSet &set);
    const InboxMappingSet &mappings() const { return m_set; }
    void setIntervalMs(int ms);
    void setStatementTimeoutMs(int ms) { m_statementTimeoutMs = ms; }
    // The policy's masking: boards show masked message ids masked (InboxBoardQuery::collect;
    // ARCHITECTURE.md, Masking).
    void setKeyMask(const KeyMask &mask) { m_mask = mask; }

    // Reads one mapping now (the Refresh button), or all of them.
    void refresh(const QString &mappingName);
    void refreshAll();
    void stop();

    // The latest board of each mapping (by mapping name); an unread mapping is absent.
    QHash<QString, InboxBoard> boards() const { return m_boards; }

Q_SIGNALS:
    // One mapping's board (board.mappingName), whether it read or failed (board.error says why).
    void boardReady(const InboxBoard &board);

private:
    struct Watched;
    void read(Watched &watched);

    InboxMappingSet m_set;
    KeyMask m_mask;
    std::vector<std::unique_ptr<Watched>> m_watched;
    QHash<QString, InboxBoard> m_boards;
    int m_intervalMs = DefaultIntervalMs;
    int m_statementTimeoutMs;
};
