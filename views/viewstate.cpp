#include "viewstate.h"

#include <QDataStream>
#include <QHeaderView>
#include <QIODevice>
#include <QSplitter>

namespace ViewState {
namespace {
constexpr quint32 Version = 1;
}

QByteArray save(const QSplitter *split, const QHeaderView *header)
{
    QByteArray state;
    QDataStream out(&state, QIODevice::WriteOnly);
    out << Version << split->saveState() << header->saveState();
    return state;
}

void restore(QSplitter *split, QHeaderView *header, const QByteArray &state)
{
    QDataStream in(state);
    quint32 version = 0;
    QByteArray splitState;
    QByteArray headerState;
    in >> version >> splitState >> headerState;
    if (version != Version || in.status() != QDataStream::Ok)
        return;
    split->restoreState(splitState);
    header->restoreState(headerState);
}
} // namespace ViewState
