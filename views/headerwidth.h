#pragma once

class QTableView;

namespace HeaderWidth {
// The width a column needs for its header's text and the sort indicator beside it.
int of(const QTableView *table, int column);
// Sets a column just wide enough for its header's text and the sort indicator beside it.
void fitColumn(QTableView *table, int column);
// The same for every column of the table's model.
void fitAllColumns(QTableView *table);
} // namespace HeaderWidth
