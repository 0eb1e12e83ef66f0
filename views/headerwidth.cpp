#include "headerwidth.h"

#include <QFontMetrics>
#include <QHeaderView>
#include <QTableView>

namespace {
constexpr int kSortIndicatorRoom = 36; // the arrow and the section's margins, with the default style
}

namespace HeaderWidth {
int of(const QTableView *table, int column)
{
    const QFontMetrics metrics(table->horizontalHeader()->font());
    const QString text = table->model()->headerData(column, Qt::Horizontal).toString();
    return metrics.horizontalAdvance(text) + kSortIndicatorRoom;
}

void fitColumn(QTableView *table, int column)
{
    table->setColumnWidth(column, of(table, column));
}

void fitAllColumns(QTableView *table)
{
    for (int c = 0; c < table->model()->columnCount(); ++c)
        fitColumn(table, c);
}
} // namespace HeaderWidth
