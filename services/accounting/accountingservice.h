#pragma once

#include "services/accounting/deliveryaccountant.h"
#include "services/support/jobtracker.h"

#include <QObject>

// The console's delivery accounting (ARCHITECTURE.md, Data flows: Delivery accounting): one run at a
// time as a JobTracker job (a new start supersedes the last; cancel stops it between records), progress
// and the result posted to the thread that owns the service; exports written as jobs too.
class AccountingService final : public QObject {
    Q_OBJECT
public:
    explicit AccountingService(QObject *parent = nullptr);

    void start(const AccountingRequest &request);
    void cancel();
    bool isRunning() const { return m_running; }

    enum class ExportFormat { Csv, JsonLines };
    // Writes the records of the chosen classes (all when empty) to `path`; exported() reports.
    void exportRecords(const AccountingResultPtr &result, const QList<AccountClass> &classes,
                       ExportFormat format, const QString &path);
    // The CSV layout: one header line, then one line per record (text quoted where it must be).
    static QByteArray csvHeader();
    static QByteArray csvLine(const AccountingResult &result, const AccountedRecord &record);

Q_SIGNALS:
    void progress(const AccountingProgress &progress);
    void finished(const AccountingResultPtr &result);
    void exported(const QString &path, qint64 records, const QString &error);

private:
    JobTracker m_runs{this};
    JobTracker m_exports{this};
    bool m_running = false;
};
