#pragma once

#include <QStringList>

namespace Commands {
// berth dlq scan --bootstrap B --topic T [--from beginning|end|end-N|offset:N|time:T] [--partition P]
//                [--live] [--json]
// With --json: one JSON object per line, each index entry ("type":"entry"), then the failure groups
// ("type":"group"), the poison messages ("type":"poison") and a summary ("type":"summary").
int dlqScan(const QStringList &arguments);
} // namespace Commands
