#pragma once

#include <QLoggingCategory>

// One category per area so operators can filter with QT_LOGGING_RULES ("berth.kafka.debug=true").
Q_DECLARE_LOGGING_CATEGORY(lcKafka)
Q_DECLARE_LOGGING_CATEGORY(lcInbox)
Q_DECLARE_LOGGING_CATEGORY(lcMonitor)
Q_DECLARE_LOGGING_CATEGORY(lcDemo)
Q_DECLARE_LOGGING_CATEGORY(lcDlq)
Q_DECLARE_LOGGING_CATEGORY(lcAudit)
