#pragma once

#include "services/monitor/alertrules.h"

#include <QWidget>

class QAbstractItemModel;
class QComboBox;
class QLineEdit;
class QPushButton;
class QTableView;
class QTreeWidget;

// The alert list: the rule, the subject, the owner the policy names and the evidence; acknowledge,
// snooze with a reason, and open the view that shows the evidence (double-click or "Show evidence").
// Below it, every rule's thresholds and where each came from (the policy key, or Berth's default).
class AlertView final : public QWidget {
    Q_OBJECT
public:
    explicit AlertView(QAbstractItemModel *model, QWidget *parent = nullptr);

    void setThresholds(const QList<AlertThreshold> &thresholds);

    // For tests and screenshots.
    QTableView *table() const { return m_table; }
    QPushButton *acknowledgeButton() const { return m_acknowledge; }
    QPushButton *snoozeButton() const { return m_snooze; }
    QPushButton *evidenceButton() const { return m_evidence; }
    QComboBox *snoozeDuration() const { return m_duration; }
    QLineEdit *snoozeReason() const { return m_reason; }
    QTreeWidget *thresholdList() const { return m_thresholds; }

Q_SIGNALS:
    void acknowledgeRequested(quint64 alertId);
    void snoozeRequested(quint64 alertId, int minutes, const QString &reason);
    void evidenceRequested(const QString &view, const QString &subject);

private:
    void updateButtons();
    QList<quint64> selectedIds(bool activeOnly) const;

    QTableView *m_table;
    QPushButton *m_acknowledge;
    QPushButton *m_evidence;
    QComboBox *m_duration;
    QLineEdit *m_reason;
    QPushButton *m_snooze;
    QTreeWidget *m_thresholds;
};
