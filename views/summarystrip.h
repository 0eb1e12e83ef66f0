#pragma once

#include "models/desksummary.h"

#include <QLabel>

// The strip over the tabs that answers "is anything wrong right now?" (ARCHITECTURE.md, Views: status at a
// glance). Each part is a link (mouse or Tab + Enter) to the main view that shows it. Rich text made only of
// escaped names and counts; it wraps, so many DLQ topics never widen the window.
class SummaryStrip final : public QLabel {
    Q_OBJECT
public:
    explicit SummaryStrip(QWidget *parent = nullptr);

    void setItems(const QList<DeskSummary::Item> &items);
    const QList<DeskSummary::Item> &items() const { return m_items; }
    // What the strip says, as plain text (tests, the tooltip).
    QString plainText() const;
    // Follows the part with this index, as a click on it would.
    void activate(int index);

    QSize minimumSizeHint() const override;

Q_SIGNALS:
    void viewRequested(const QString &view, const QString &subject);

private:
    QList<DeskSummary::Item> m_items;
};
