#pragma once

#include "services/kafka/kafkaconfig.h"
#include "services/kafka/kafkarecord.h"

#include <QByteArray>
#include <QList>
#include <QString>

// The adversarial dead-letter corpus (tst_adversarial triages it, tst_adversarialreplay replays it): 36
// hostile records (keys, values and headers in every dialect), produced by Berth's producer and by kcat as
// an independent one. records() is the truth both tests check against.
namespace AdversarialCorpus {
struct Record {
    const char *name;
    QByteArray key;
    bool keyIsNull = false;
    QByteArray value;
    bool valueIsNull = false; // a tombstone: NULL, not an empty value
    RecordHeaders headers;
    int partition = 0;
    bool viaKcat = false; // produced by kcat (key and value as text, headers as name=value)
};

// In topic order: partition 0 holds records 0..Partition0-1 at offsets 0..Partition0-1; the last record
// (16 MB) is alone on partition 1, at offset 0 (the mock broker keeps about 5 MB a partition).
QList<Record> records();
constexpr int Partition0 = 35;
constexpr int Total = Partition0 + 1;
constexpr int KcatMarkupOffset = Partition0 - 2; // kcat: a header with markup and a bidi override
constexpr int KcatNullOffset = Partition0 - 1;   // kcat -Z: a NULL value
// 16 MB of JSON: above every producer's default message.max.bytes (1,000,000).
const QByteArray &huge();

// Produces records() into `topic` (which needs two partitions), one at a time so offsets follow the list.
// `cluster`: the client properties; `bootstrap`: for kcat.
bool produce(const KafkaProperties &cluster, const QString &bootstrap, const QString &topic, QString *error);
} // namespace AdversarialCorpus
