#pragma once

class QAbstractScrollArea;

namespace FlatScrollBars {
// Gives a scroll area plain scroll bars: a flat groove and a rounded handle in the palette's colours.
//
// For views that repaint while background work keeps every core busy, as the DLQ table does with each
// batch of a scan. Fusion draws its scroll bar groove with gradients, and Qt's raster engine splits each
// such fill over its painting threads and waits for them, so every repaint queues for cores the scan
// holds. Solid fills are painted in place, on the interface thread. The interface's longest pause during
// a scan is FIGURE dlq_ui_stall_max_ms in tests/bench/bench_dlq.cpp.
void apply(QAbstractScrollArea *area);
} // namespace FlatScrollBars
