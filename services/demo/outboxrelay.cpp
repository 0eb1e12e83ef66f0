#include "outboxrelay.h"

#include "demonap.h"
#include "services/inbox/pgsession.h"
#include "services/kafka/kafkaproducer.h"
#include "services/support/logging.h"

#include <QElapsedTimer>

#include <chrono>

using namespace Qt::StringLiterals;

OutboxRelay::OutboxRelay(KafkaProperties cluster, QString conninfo)
    : m_cluster(std::move(cluster))
    , m_conninfo(std::move(conninfo))
{
}

OutboxRelay::~OutboxRelay()
{
    stop();
}

void OutboxRelay::start()
{
    m_stop = false;
    m_thread = std::thread([this] { run(); });
}

void OutboxRelay::requestStop()
{
    m_stop = true;
}

void OutboxRelay::stop()
{
    requestStop();
    if (m_thread.joinable())
        m_thread.join();
}

void OutboxRelay::run()
{
    QString error;
    auto producer = KafkaProducer::create(m_cluster, &error);
    if (!producer) {
        qCWarning(lcDemo) << "outbox relay:" << error;
        return;
    }
    PgSession db;
    QElapsedTimer clock;
    clock.start();
    while (!m_stop) {
        napUnlessStopped(m_stop, std::chrono::milliseconds(500));
        if (m_stop)
            break;
        if (clock.elapsed() % 60000 >= 45000)
            continue; // the scheduled stall
        if (!db.isOpen() && !db.connect(m_conninfo, &error))
            continue;
        db.exec(u"BEGIN"_s);
        const PgResult rows = db.exec(u"SELECT id, aggregate_id, topic, payload::text FROM outbox WHERE status = 'pending' "
                                      "ORDER BY id LIMIT 100 FOR UPDATE SKIP LOCKED"_s);
        if (!rows.ok) {
            db.close();
            continue;
        }
        QVariantList ids;
        for (const auto &row : rows.rows) {
            producer->produce({row.at(2).toString(), -1, row.at(1).toString().toUtf8(), false, row.at(3).toString().toUtf8(), {}, 0});
            ids << row.at(0);
        }
        // Marked published only after the broker has them: a crash here re-publishes (at-least-once).
        if (!ids.isEmpty() && producer->flush(5000)) {
            QStringList idText;
            for (const auto &id : ids)
                idText << id.toString();
            db.exec(u"UPDATE outbox SET status = 'published', published_at = now() WHERE id = ANY($1::bigint[])"_s,
                    {QString(u"{"_s + idText.join(u',') + u"}")});
            m_published += ids.size();
        }
        db.exec(u"COMMIT"_s);
    }
}
