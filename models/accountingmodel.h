#pragma once

#include "services/accounting/accountedrecordfields.h"
#include "services/accounting/accountingtypes.h"

#include <QAbstractTableModel>
#include <QSet>

#include <vector>

// The records behind an accounting's counts (ARCHITECTURE.md, Data flows: Delivery accounting), one row
// per record of the chosen classes; rows are indexes into the result (none when every class is shown), so
// a million records cost at most one vector of row numbers and nothing is copied. The per-minute counts
// per class the chart draws come with the result.
class AccountingModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        ClassColumn,
        PartitionColumn,
        OffsetColumn,
        TimeColumn,
        KeyColumn,
        IdempotencyKeyColumn,
        SequenceColumn,
        NotesColumn,
        ColumnCount
    };
    static constexpr int ClassRole = Qt::UserRole + 1; // the AccountClass as an int

    explicit AccountingModel(QObject *parent = nullptr);

    void setResult(const AccountingResultPtr &result);
    AccountingResultPtr result() const { return m_result; }
    // The classes shown; empty shows every record.
    void setClasses(const QSet<AccountClass> &classes);
    QSet<AccountClass> classes() const { return m_classes; }
    const AccountedRecord *recordAt(int row) const;
    // What the record of `row` says, for the inspectors (a row past the end gives an empty value).
    AccountedRecordFields fields(int row) const;

    // Records per minute (epoch minute → count) for one class, over the whole window.
    QMap<qint64, qint64> perMinute(AccountClass c) const;
    // A class's name for the interface ("Processed", "Unaccounted"...).
    static QString className(AccountClass c);
    static QString noteText(quint16 notes);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    void rebuild();
    AccountingResultPtr m_result;
    QSet<AccountClass> m_classes;
    bool m_all = false;          // every class is shown: row i is record i
    std::vector<quint32> m_rows; // otherwise: indexes into m_result->records
};
