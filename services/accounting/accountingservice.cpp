#include "services/accounting/accountingservice.h"

#include "services/accounting/accountingjson.h"
#include "services/support/threadpriority.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QSaveFile>

#include <atomic>
#include <memory>

using namespace Qt::StringLiterals;

AccountingService::AccountingService(QObject *parent)
    : QObject(parent)
{
    qRegisterMetaType<AccountingProgress>();
    qRegisterMetaType<AccountingResultPtr>();
}

void AccountingService::start(const AccountingRequest &request)
{
    m_running = true;
    // The run reports progress through the job's own channel, which drops it once the job is stale.
    auto latest = std::make_shared<AccountingProgress>();
    auto lock = std::make_shared<QMutex>();
    m_runs.start(
        [request, latest, lock](const JobControl &control) {
            // The run, its librdkafka threads and inbox threads (which inherit the level) give way to the
            // interface thread on a busy desk.
            ThreadPriority::yieldToInterface();
            AccountingHooks hooks;
            hooks.cancelled = [&control] { return control.isCancelled(); };
            hooks.progress = [&control, latest, lock](const AccountingProgress &p) {
                {
                    const QMutexLocker locked(lock.get());
                    *latest = p;
                }
                control.reportProgress(p.records, p.total);
            };
            return DeliveryAccountant::run(request, hooks);
        },
        [this](const AccountingResultPtr &result) {
            m_running = false;
            Q_EMIT finished(result);
        },
        [this, latest, lock](qint64, qint64) {
            AccountingProgress p;
            {
                const QMutexLocker locked(lock.get());
                p = *latest;
            }
            Q_EMIT progress(p);
        });
}

void AccountingService::cancel()
{
    if (!m_running)
        return;
    m_runs.cancel();
    m_running = false;
    auto cancelled = std::make_shared<AccountingResult>();
    cancelled->cancelled = true;
    Q_EMIT finished(cancelled);
}

QByteArray AccountingService::csvHeader()
{
    return "class,partition,offset,timestamp,key,idempotency_key,sequence,notes\n";
}

QByteArray AccountingService::csvLine(const AccountingResult &result, const AccountedRecord &r)
{
    const auto quoted = [](const QByteArray &text) -> QByteArray {
        if (!text.contains(',') && !text.contains('"') && !text.contains('\n') && !text.contains('\r'))
            return text;
        QByteArray out = text;
        out.replace('"', "\"\"");
        return QByteArray(1, '"') + out + '"';
    };
    QByteArray line =
        accountClassKey(r.cls).toUtf8() + ',' + QByteArray::number(r.partition) + ','
        + QByteArray::number(r.offset) + ','
        + (r.timestampMs >= 0
               ? QDateTime::fromMSecsSinceEpoch(r.timestampMs, Qt::UTC).toString(Qt::ISODateWithMs).toUtf8()
               : QByteArray())
        + ',' + quoted(result.recordKeyText(r.recordKey).toUtf8()) + ','
        + quoted(result.idempotencyKeyText(r.idempotencyKey).toUtf8()) + ','
        + (r.sequence != AccountedRecord::NoSequence ? QByteArray::number(r.sequence) : QByteArray()) + ','
        + quoted(AccountNote::names(r.notes).join(u' ').toUtf8()) + '\n';
    return line;
}

void AccountingService::exportRecords(const AccountingResultPtr &result, const QList<AccountClass> &classes,
                                      ExportFormat format, const QString &path)
{
    m_exports.start(
        [result, classes, format, path](const JobControl &control) {
            std::pair<qint64, QString> outcome{0, {}};
            QSaveFile file(path);
            if (!file.open(QIODevice::WriteOnly)) {
                outcome.second = file.errorString();
                return outcome;
            }
            QByteArray chunk = format == ExportFormat::Csv ? csvHeader() : QByteArray();
            for (const AccountedRecord &r : result->records) {
                if (!classes.isEmpty() && !classes.contains(r.cls))
                    continue;
                chunk +=
                    format == ExportFormat::Csv
                        ? csvLine(*result, r)
                        : QJsonDocument(AccountingJson::record(*result, r)).toJson(QJsonDocument::Compact)
                              + '\n';
                ++outcome.first;
                if (chunk.size() > (1 << 20)) {
                    file.write(chunk);
                    chunk.clear();
                    if (control.isCancelled()) {
                        file.cancelWriting();
                        outcome.second = tr("cancelled");
                        return outcome;
                    }
                }
            }
            file.write(chunk);
            if (!file.commit())
                outcome.second = file.errorString();
            return outcome;
        },
        [this, path](const std::pair<qint64, QString> &outcome) {
            Q_EMIT exported(path, outcome.first, outcome.second);
        });
}
