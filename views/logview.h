#pragma once

#include <QWidget>

class LogModel;
class QTableView;

// The log panel: the newest messages at the bottom, a level filter and an area filter.
class LogView final : public QWidget {
    Q_OBJECT
public:
    explicit LogView(LogModel *model, QWidget *parent = nullptr);
    QTableView *table() const { return m_table; }

private:
    LogModel *m_model;
    QTableView *m_table;
};
