#pragma once

#include <QWidget>

class QAbstractItemModel;
class QLineEdit;
class QLabel;
class QSortFilterProxyModel;
class QSpinBox;
class QTableView;

// Groups on top (sortable by lag, time lag, status), the selected group's partitions below.
class LagView final : public QWidget {
    Q_OBJECT
public:
    LagView(QAbstractItemModel *groups, QAbstractItemModel *partitions, QWidget *parent = nullptr);

    void setSummary(const QString &text);
    void setDuplicates(const QString &text);
    void setAllowedLag(qint64 messages); // shows the value; emits nothing
    void focusFilter();
    QByteArray saveHeaderState() const;
    void restoreHeaderState(const QByteArray &state);
    QTableView *groupTable() const { return m_groups; }
    QTableView *partitionTable() const { return m_partitions; }

Q_SIGNALS:
    void groupActivated(const QString &group); // double-click: show its chart
    void allowedLagChanged(qint64 messages);   // the operator changed the allowed lag
    // "Reset offsets…" on a group: its name and the topics it consumes.
    void resetOffsetsRequested(const QString &group, const QStringList &topics);

private:
    QLineEdit *m_filter;
    QLabel *m_summary;
    QLabel *m_duplicates;
    QSpinBox *m_allowedLag;
    QSortFilterProxyModel *m_groupProxy;
    QSortFilterProxyModel *m_partitionProxy;
    QTableView *m_groups;
    QTableView *m_partitions;
};
