#pragma once

#include "services/inbox/inboxboard.h"

#include <QJsonObject>

// One inbox board as JSON for the command line (`berth lag --policy ... --json`): which mapping, table
// and database, the counts per state by consumer, the stuck rows, the outbox backlog, missing indexes,
// or the error.
QJsonObject inboxBoardToJson(const InboxBoard &board);
