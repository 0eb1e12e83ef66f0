#pragma once

#include <QWidget>

class QAbstractItemModel;
class QLineEdit;
class QLabel;
class QSortFilterProxyModel;
class QTableView;

// The lag table with a filter box. Sorting uses the model's raw numbers, not the formatted text.
class LagView final : public QWidget {
    Q_OBJECT
public:
    explicit LagView(QAbstractItemModel *model, QWidget *parent = nullptr);

    void setSummary(const QString &text);
    void focusFilter();
    QByteArray saveHeaderState() const;
    void restoreHeaderState(const QByteArray &state);
    QTableView *table() const { return m_table; }

private:
    QLineEdit *m_filter;
    QLabel *m_summary;
    QSortFilterProxyModel *m_proxy;
    QTableView *m_table;
};
