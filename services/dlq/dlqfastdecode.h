#pragma once

#include "services/dlq/dlqrecord.h"

#include <QByteArrayView>

// The scanner's shortcut through decodeDlqHeaders for the common case: every recognised header from one
// dialect (Spring DLT may carry retry_topic-*), none repeated, none null, every value well-formed (text
// valid UTF-8 without a BOM, numbers in the form the dialect writes). Then decoding is a plain mapping,
// done here on the record's bytes without a single allocation. Anything else (which decodeDlqHeaders
// would note) is declined, and the caller uses decodeDlqHeaders itself: the two must agree on every
// record this accepts (tst_dlqscanner checks it on random header sets). Both read the one dialect table
// (dlqdialects.h) and the same number parsers (dlqheadernumbers.h).
struct DlqHeaderView {
    static constexpr int NotLookedUp = -2;
    QByteArrayView name;
    QByteArrayView value;
    bool isNull = false;
    // The header's row in DlqDialects::kSpecs (-1: none) when the caller has looked it up already.
    int spec = NotLookedUp;
};

// The fields of DlqMetadata the scan's index keeps, as views into the record.
struct DlqFastFields {
    DlqDialect dialect = DlqDialect::Unknown;
    QByteArrayView originalTopic;
    QByteArrayView consumer; // consumer group, or the Kafka Connect connector
    QByteArrayView exceptionClass;
    QByteArrayView causeClass;
    QByteArrayView reason;
    QByteArrayView idempotencyKey;
    int originalPartition = -1;
    qint64 originalOffset = -1;
    int attempts = -1;
};

// True when it decoded the headers exactly as decodeDlqHeaders would, with no notes. Stack traces are the
// exception: the index does not keep them, so their values are not looked at (one that is not UTF-8 gets a
// note from decodeDlqHeaders only); DlqEntryBuilder leaves them out of both paths.
bool decodeDlqHeadersFast(const DlqHeaderView *headers, qsizetype count, DlqFastFields &out);
