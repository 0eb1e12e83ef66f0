#pragma once

#include <QWidget>

class QAbstractItemModel;
class QPushButton;
class QTableView;

// The alert list with acknowledge.
class AlertView final : public QWidget {
    Q_OBJECT
public:
    explicit AlertView(QAbstractItemModel *model, QWidget *parent = nullptr);

Q_SIGNALS:
    void acknowledgeRequested(quint64 alertId);

private:
    QTableView *m_table;
    QPushButton *m_acknowledge;
};
