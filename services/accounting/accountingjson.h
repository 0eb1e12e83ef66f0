#pragma once

#include "services/accounting/accountingtypes.h"
#include "services/accounting/deliverysemantics.h"

#include <QJsonObject>

// How an accounting reads as JSON (ARCHITECTURE.md, Contracts: Delivery accounting): `berth account`'s
// lines and the console's JSON-lines export, written in one place.
namespace AccountingJson {
// {"type":"record","class":...,"partition","offset","timestamp","key","idempotencyKey","sequence","notes"}
QJsonObject record(const AccountingResult &result, const AccountedRecord &r);
// {"type":"order","kind":"gap"|"outOfOrder"|"repeat"|"dlqAndContinue","key",...}
QJsonObject finding(const AccountingResult &result, const SequenceFinding &f);
// {"type":"summary","classes":{...},"notes":N,...}
QJsonObject summary(const AccountingResult &result);
// {"promised","promisedBecause","observed","contradictions":[...],"lostKeys":[...]}
QJsonObject semantics(const DeliverySemanticsVerdict &verdict);
// The summary for a terminal, one class a line.
QString summaryText(const AccountingResult &result);
} // namespace AccountingJson
