#pragma once

#include "services/dlq/dlqentryfields.h"
#include "services/dlq/dlqscantypes.h"

#include <QWidget>

#include <memory>

class DlqScanner;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTabWidget;
class QTableWidget;

// One dead-lettered record: what the index knows at once, then the whole record fetched on demand
// (all headers decoded and raw, key, payload as pretty JSON, hex, stack trace). Every widget showing
// record data is plain text: payloads and header values are data, never markup.
class DlqInspectorView final : public QWidget {
    Q_OBJECT
public:
    // Payload and hex show this much at first; "Show more" adds as much again.
    static constexpr qsizetype PayloadStep = 256 * 1024;

    explicit DlqInspectorView(DlqScanner *scanner, QWidget *parent = nullptr);

    // What the index knows of a dead letter of `topic`, shown at once; the record itself is fetched.
    void showEntry(const DlqEntryFields &entry, const QString &topic, const QString &bootstrap);
    // Any record of any topic on `cluster` (an accounted source record, or its dead letter): the record is
    // fetched whole and shown as a dead letter is; `context` (label, value) leads its Summary.
    void showRecordAt(const KafkaProperties &cluster, const QString &topic, int partition, qint64 offset,
                      const QList<std::pair<QString, QString>> &context);
    // Nothing to show, and why (the placeholder text).
    void clear(const QString &why = {});

    bool hasRecord() const { return m_loaded; }
    const KafkaRecord &record() const { return m_record; }
    QString kcatCommand() const;
    bool exportJson(const QString &path, QString *error) const;
    void showMore();
    // Schemas arrived: a payload that waited for one is decoded again.
    void refreshPendingPayload();
    // The audit database recorded the reveal asked for: the record is fetched again without masking.
    void showRevealed();
    void showRevealRefused(const QString &error);
    // What the shown record had masked: paths, "header:NAME", "key" (what a reveal records).
    QStringList maskedFields() const;
    const DecodedPayload &payload() const { return m_decoded; }

    // For tests: the widgets' text.
    QString summaryText() const;
    QString payloadText() const;
    QString payloadNoteText() const;
    QString hexText() const;
    QString stackTraceText() const;
    QTableWidget *headerTable() const { return m_headers; }

Q_SIGNALS:
    void recordLoaded();
    void recordFailed(const QString &error);
    // The operator asked to see the masked values of the shown record, for a reason.
    void revealRequested(const QString &topic, int partition, qint64 offset, const QStringList &fields,
                         const QString &reason);

private:
    void onFetched(const DlqFetchedRecord &fetched);
    void showRecord();
    void showPayload();
    void setBusy(const QString &message);
    void exportInteractively();
    quint64 fetch(bool reveal);

    DlqScanner *m_scanner;
    QLabel *m_title;
    QLabel *m_state;
    QTabWidget *m_tabs;
    QPlainTextEdit *m_summary;
    QTableWidget *m_headers;
    QPlainTextEdit *m_key;
    QPlainTextEdit *m_payload;
    QLabel *m_payloadNote;
    QPlainTextEdit *m_hex;
    QPlainTextEdit *m_stack;
    QPushButton *m_more;
    QPushButton *m_copyKcat;
    QPushButton *m_export;
    QPushButton *m_reveal;

    quint64 m_requestId = 0;
    KafkaProperties m_cluster; // empty: the scanner's latest scan
    QString m_context;         // lines leading the Summary
    QString m_topic;
    QString m_bootstrap;
    int m_partition = -1;
    qint64 m_offset = -1;
    bool m_loaded = false;
    KafkaRecord m_record;
    DlqMetadata m_metadata;
    DecodedPayload m_decoded;
    PayloadMask::Outcome m_mask;
    bool m_revealed = false;
    qsizetype m_limit = PayloadStep;
};
