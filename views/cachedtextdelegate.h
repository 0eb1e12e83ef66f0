#pragma once

#include <QFont>
#include <QHash>
#include <QStaticText>
#include <QStyledItemDelegate>

// Paints single-line text cells from a bounded cache of laid-out, elided text. A table over a million rows
// repaints its whole viewport each time rows are appended below it (every scan batch); the stock delegate
// shapes and elides every visible cell again each time, on the interface thread (its longest pause during
// a scan: FIGURE dlq_ui_stall_max_ms in tests/bench/bench_dlq.cpp). Here a repaint of unchanged cells
// only draws prepared glyphs. Text is always plain (never guessed as rich text); cells with icons, check
// boxes or several lines use the stock path.
class CachedTextDelegate final : public QStyledItemDelegate {
    Q_OBJECT
public:
    explicit CachedTextDelegate(QObject *parent = nullptr);

    void paint(QPainter *painter, const QStyleOptionViewItem &option,
               const QModelIndex &index) const override;

    qsizetype cachedCount() const { return m_cache.size(); }
    static constexpr qsizetype kCapacity = 8192; // a few full viewports; the cache restarts when full

private:
    struct Key {
        QString text;
        int width = 0;
        Qt::TextElideMode mode = Qt::ElideRight;
        friend bool operator==(const Key &a, const Key &b)
        {
            return a.width == b.width && a.mode == b.mode && a.text == b.text;
        }
        friend size_t qHash(const Key &k, size_t seed = 0)
        {
            return qHashMulti(seed, k.text, k.width, int(k.mode));
        }
    };
    struct Laid {
        QFont font;
        QStaticText text;
        QSize size; // as the style measures text, so alignment matches the stock delegate's
    };
    const Laid &laidOut(const QString &text, const QStyleOptionViewItem &opt, int width) const;

    mutable QHash<Key, Laid> m_cache;
};
