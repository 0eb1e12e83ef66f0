#pragma once

#include <QWidget>

class ChecklistModel;
class QLabel;
class QTableView;

// The consumer review checklist: every question per consumer, what the policy answers, what Berth sees,
// and a verdict; "only problems" hides the answered ones; export as markdown for a review or a ticket.
class ChecklistView final : public QWidget {
    Q_OBJECT
public:
    explicit ChecklistView(ChecklistModel *model, QWidget *parent = nullptr);
    QTableView *table() const { return m_table; }
    ChecklistModel *model() const { return m_model; }
    void setPolicySource(const QString &source) { m_policySource = source; }
    bool exportMarkdown(const QString &path, QString *error) const;

private:
    ChecklistModel *m_model;
    QTableView *m_table;
    QLabel *m_summary;
    QString m_policySource;
};
