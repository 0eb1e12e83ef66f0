#pragma once

// QCustomPlot's public header is written with Qt's keyword macros (signals, slots, emit, foreach), which
// Berth builds without (QT_NO_KEYWORDS, QT_NO_FOREACH). They exist for this one include only.
#define signals Q_SIGNALS
#define slots Q_SLOTS
#define emit Q_EMIT
#define foreach(variable, container) for (variable : container)
#include <qcustomplot.h> // IWYU pragma: export
#undef foreach
#undef emit
#undef slots
#undef signals
