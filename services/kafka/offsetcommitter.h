#pragma once

#include "kafkaconfig.h"
#include "kafkatypes.h"

// Commits offsets for a group without joining it (a "simple" commit, generation -1). Tests use it to script
// a consumer's progress exactly; the demo's consumers commit through their own group membership.
namespace OffsetCommitter {
bool commit(const KafkaProperties &cluster, const QString &group, const PartitionOffsets &offsets, QString *error);
}
