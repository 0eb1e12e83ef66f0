#pragma once

#include <QByteArray>

class QHeaderView;
class QSplitter;

// The layout a view keeps between sessions (QSettings): a splitter and a table header, versioned so a
// layout saved by an older Berth is ignored rather than misapplied.
namespace ViewState {
QByteArray save(const QSplitter *split, const QHeaderView *header);
void restore(QSplitter *split, QHeaderView *header, const QByteArray &state);
} // namespace ViewState
