#include "logging.h"

Q_LOGGING_CATEGORY(lcKafka, "berth.kafka", QtInfoMsg)
Q_LOGGING_CATEGORY(lcInbox, "berth.inbox", QtInfoMsg)
Q_LOGGING_CATEGORY(lcMonitor, "berth.monitor", QtInfoMsg)
Q_LOGGING_CATEGORY(lcDemo, "berth.demo", QtInfoMsg)
Q_LOGGING_CATEGORY(lcDlq, "berth.dlq", QtInfoMsg)
Q_LOGGING_CATEGORY(lcAudit, "berth.audit", QtInfoMsg)
