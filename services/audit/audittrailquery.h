#pragma once

#include "services/audit/audittypes.h"
#include "services/support/jobtracker.h"

#include <QList>
#include <QObject>

// One page of the audit log as a filter selects it, oldest first.
struct AuditEventsPage {
    EventFilter filter;
    QList<AuditEvent> events;
    bool append = false; // continues the previous page (filter.afterSeq > 0)
    bool more = false;   // more rows match after the last one
    QString error;       // one readable line
};
Q_DECLARE_METATYPE(AuditEventsPage)

// Reads the audit log and verifies its hash chain for the trail view. Each job runs on the thread pool
// with a short connection of its own, so a long verify never holds up the approval queue's session. A
// newer fetch supersedes an older one; verification is tracked separately, with progress and cancel.
class AuditTrailQuery final : public QObject {
    Q_OBJECT
public:
    explicit AuditTrailQuery(QObject *parent = nullptr);

    void setConninfo(const QString &conninfo) { m_conninfo = conninfo; }
    QString conninfo() const { return m_conninfo; }

    // filter.limit rows at most; with filter.afterSeq > 0 the page continues an earlier one.
    void fetch(const EventFilter &filter);
    // Recomputes the chain, then records the outcome as a `chain.verified` event of this desk.
    void verify();
    void cancelVerify();

Q_SIGNALS:
    void pageReady(const AuditEventsPage &page);
    void verifyProgress(qint64 checkedRows, qint64 highestSeq);
    void verified(const ChainVerification &result);

private:
    QString m_conninfo;
    JobTracker m_fetches{this};
    JobTracker m_verifies{this};
};
