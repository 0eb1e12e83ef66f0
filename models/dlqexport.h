#pragma once

#include "models/dlqentrystore.h"
#include "services/support/jobtracker.h"

#include <QString>

#include <memory>
#include <vector>

class StringPool;

// Writes the browser's rows (filtered and sorted as shown) to a file, streamed, on a worker thread: a
// million rows never sit in memory as text. CSV for spreadsheets, JSON lines for scripts.
namespace DlqExport {
enum class Format { Csv, JsonLines };

// What to write, captured on the UI thread (cheap: chunk pointers and a row order).
struct Source {
    DlqEntryStore::Snapshot entries;
    std::shared_ptr<const StringPool> strings;
    std::vector<quint32> rows; // entry indexes in display order; empty with identity: all, in scan order
    bool identity = true;
    QString topic;

    quint32 rowCount() const { return identity ? entries.size() : quint32(rows.size()); }
};

struct Outcome {
    qint64 rows = 0;
    QString error; // empty: written
};

Format formatForPath(const QString &path); // ".jsonl"/".json"/".ndjson": JSON lines; otherwise CSV
// Writes atomically (the file appears whole or not at all); checks control for cancel, reports progress.
Outcome write(const QString &path, Format format, const Source &source, const JobControl &control = JobControl());
// One CSV field: quoted when needed, and a leading = + - @ neutralised so a spreadsheet never runs a
// dead letter's text as a formula.
QString csvField(const QString &text);
}
