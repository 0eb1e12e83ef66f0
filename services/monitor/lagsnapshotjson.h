#pragma once

#include "lagsnapshot.h"

#include <QJsonObject>

// The machine-readable form of one sample (berth lag --json): groups with their partitions.
QJsonObject lagSnapshotToJson(const LagSnapshot &snapshot);
