#pragma once

class QAbstractScrollArea;

namespace FlatScrollBars {
// Gives a scroll area plain scroll bars: a flat groove and a rounded handle in the palette's colours.
//
// For views that repaint while background work keeps every core busy, as the DLQ table does with each
// batch of a scan. Fusion draws its scroll bar groove with gradients, and Qt's raster engine splits each
// such fill over its painting threads and waits for them: some 25 hand-overs per repaint, each a chance
// to queue for a core behind the scan. Solid fills are painted in place. bench_dlq --stalls-only, 8 scans
// each against one 1M-record cluster: the interface's longest pause 16-29 ms, against 16-53 ms.
void apply(QAbstractScrollArea *area);
} // namespace FlatScrollBars
