#include "services/inbox/inboxwatch.h"

#include "services/inbox/inboxboardhelpersession.h"
#include "services/inbox/inboxboardquery.h"
#include "services/inbox/pgsession.h"
#include "services/support/jobtracker.h"

#include <QTimer>

using namespace Qt::StringLiterals;

struct InboxWatch::Watched {
    InboxMapping mapping;
    QString conninfo;
    QString problem; // the mapping names no usable database
    QString databaseLabel;
    QTimer *timer = nullptr;
    std::unique_ptr<JobTracker> jobs;
    std::shared_ptr<PgStatementCanceller> canceller; // the running read's, so stop() interrupts it
    // A huge table's second session, connected once and kept across reads; closed with this watch (or by
    // the read still running when it goes).
    std::shared_ptr<InboxBoardHelperSession> helper = std::make_shared<InboxBoardHelperSession>();
};

InboxWatch::InboxWatch(QObject *parent)
    : QObject(parent)
    , m_statementTimeoutMs(InboxBoardQuery::DefaultStatementTimeoutMs)
{
    qRegisterMetaType<InboxBoard>();
}

InboxWatch::~InboxWatch()
{
    stop();
}

void InboxWatch::stop()
{
    for (const auto &w : m_watched) {
        w->jobs->cancel();
        if (w->canceller)
            w->canceller->cancel(); // a statement in flight on a huge table stops now, not at its timeout
        delete w->timer;
    }
    m_watched.clear();
}

void InboxWatch::setMappings(const InboxMappingSet &set)
{
    stop();
    m_set = set;
    QHash<QString, InboxBoard> kept;
    const int count = int(set.mappings.size());
    for (int i = 0; i < count; ++i) {
        auto w = std::make_unique<Watched>();
        w->mapping = set.mappings.at(i);
        w->conninfo = set.conninfoFor(w->mapping, &w->problem);
        w->databaseLabel = set.databaseLabel(w->mapping);
        w->jobs = std::make_unique<JobTracker>(this);
        w->timer = new QTimer(this);
        w->timer->setInterval(m_intervalMs);
        Watched *raw = w.get();
        connect(w->timer, &QTimer::timeout, this, [this, raw] { read(*raw); });
        if (m_boards.contains(w->mapping.name))
            kept.insert(w->mapping.name, m_boards.value(w->mapping.name));
        m_watched.push_back(std::move(w));
        raw->timer->start();
        QTimer::singleShot(count > 1 ? i * 1000 / count : 0, raw->timer, [this, raw] { read(*raw); });
    }
    m_boards = kept;
}

void InboxWatch::setIntervalMs(int ms)
{
    m_intervalMs = std::max(100, ms);
    for (const auto &w : m_watched)
        w->timer->setInterval(m_intervalMs);
}

void InboxWatch::refresh(const QString &mappingName)
{
    for (const auto &w : m_watched) {
        if (w->mapping.name == mappingName)
            read(*w);
    }
}

void InboxWatch::refreshAll()
{
    for (const auto &w : m_watched)
        read(*w);
}

void InboxWatch::read(Watched &w)
{
    if (w.jobs->isRunning())
        return; // the last read is still going (a slow database): one at a time per table
    if (!w.problem.isEmpty()) {
        InboxBoard board;
        board.mappingName = w.mapping.name;
        board.table = w.mapping.qualifiedTable();
        board.database = w.databaseLabel;
        board.error = u"mapping \u201c%1\u201d: %2"_s.arg(w.mapping.name, w.problem);
        m_boards.insert(board.mappingName, board);
        Q_EMIT boardReady(board);
        return;
    }
    const int timeoutMs = m_statementTimeoutMs;
    w.canceller = std::make_shared<PgStatementCanceller>();
    w.jobs->start(
        [conninfo = w.conninfo, mapping = w.mapping, timeoutMs, canceller = w.canceller, helper = w.helper,
         mask = m_mask](const JobControl &control) {
            return InboxBoardQuery::collect(conninfo, mapping, control, timeoutMs, canceller.get(),
                                            helper.get(), mask);
        },
        [this, label = w.databaseLabel](InboxBoard board) {
            board.database = label;
            m_boards.insert(board.mappingName, board);
            Q_EMIT boardReady(board);
        });
}
