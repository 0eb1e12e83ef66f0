#pragma once

#include <QString>
#include <QStringList>

#include <librdkafka/rdkafka.h>

// A tail reads only what arrives from now on: every partition of `topics` assigned at its end, the end
// resolved to a real offset first so the tail knows exactly where it begins. Returns the topics it could
// assign; what went wrong (a topic whose partitions could not be read, end offsets unreadable) in *error.
QStringList assignTopicsAtEnd(rd_kafka_t *rk, const QStringList &topics, QString *error);
