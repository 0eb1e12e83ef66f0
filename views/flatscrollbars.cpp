#include "flatscrollbars.h"

#include <QAbstractScrollArea>
#include <QScrollBar>

using namespace Qt::StringLiterals;

namespace FlatScrollBars {
void apply(QAbstractScrollArea *area)
{
    // Palette roles, so a dark theme gets dark bars. The arrows go: the handle and a click on the groove
    // do their work, as in most current desktop styles.
    static const QString sheet =
        u"QScrollBar { background: palette(window); border: none; margin: 0; }"
        "QScrollBar:vertical { width: 14px; }"
        "QScrollBar:horizontal { height: 14px; }"
        "QScrollBar::handle { background: palette(mid); border-radius: 3px; margin: 3px; }"
        "QScrollBar::handle:hover, QScrollBar::handle:pressed { background: palette(dark); }"
        "QScrollBar::handle:vertical { min-height: 32px; }"
        "QScrollBar::handle:horizontal { min-width: 32px; }"
        "QScrollBar::add-line, QScrollBar::sub-line { width: 0; height: 0; border: none; }"
        "QScrollBar::add-page, QScrollBar::sub-page { background: none; }"_s;
    area->verticalScrollBar()->setStyleSheet(sheet);
    area->horizontalScrollBar()->setStyleSheet(sheet);
}
} // namespace FlatScrollBars
