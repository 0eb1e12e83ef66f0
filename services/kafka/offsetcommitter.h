#pragma once

#include "kafkaconfig.h"
#include "kafkatypes.h"

// Commits offsets for a group without joining it (a "simple" commit, generation -1): an offset reset
// (OffsetResetExecutor), and tests that script a consumer's progress exactly; the demo's consumers commit
// through their own group membership. A group with active members refuses such a commit as a whole
// (UNKNOWN_MEMBER_ID, also on the mock cluster): *code says which error ended it.
namespace OffsetCommitter {
bool commit(const KafkaProperties &cluster, const QString &group, const PartitionOffsets &offsets, QString *error,
            rd_kafka_resp_err_t *code = nullptr);
}
