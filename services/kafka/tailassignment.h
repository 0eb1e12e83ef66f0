#pragma once

#include <QString>
#include <QStringList>

#include <librdkafka/rdkafka.h>

#include <atomic>

// A tail reads only what arrives from now on: every partition of `topics` assigned at its end, the end
// resolved to a real offset first so the tail knows exactly where it begins. Returns the topics it could
// assign; what went wrong (a topic whose partitions could not be read, end offsets unreadable, the cluster
// out of reach) in *error. It waits at most a few seconds in all, in short slices, and returns as soon as
// `stop` is set: a tail being closed is never held up by a cluster that does not answer.
QStringList assignTopicsAtEnd(rd_kafka_t *rk, const QStringList &topics, const std::atomic_bool &stop,
                              QString *error);
