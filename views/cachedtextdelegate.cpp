#include "cachedtextdelegate.h"

#include <QApplication>
#include <QPainter>

CachedTextDelegate::CachedTextDelegate(QObject *parent)
    : QStyledItemDelegate(parent)
{
}

const CachedTextDelegate::Laid &CachedTextDelegate::laidOut(const QString &text, const QStyleOptionViewItem &opt, int width) const
{
    Key key{text, width, opt.textElideMode};
    auto it = m_cache.find(key);
    if (it != m_cache.end() && it->font == opt.font)
        return *it;
    if (it == m_cache.end() && m_cache.size() >= kCapacity)
        m_cache.clear(); // cheaper than tracking use; the next repaint refills what is on screen
    const QString elided = opt.fontMetrics.elidedText(text, opt.textElideMode, width);
    QStaticText laid(elided);
    laid.setTextFormat(Qt::PlainText); // never guess markup: payload-derived text stays text
    laid.prepare(QTransform(), opt.font);
    Laid &slot = m_cache[std::move(key)];
    slot.font = opt.font;
    slot.text = std::move(laid);
    slot.size = QSize(opt.fontMetrics.horizontalAdvance(elided), opt.fontMetrics.height());
    return slot;
}

void CachedTextDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    const bool plainCell = !(opt.features & (QStyleOptionViewItem::HasDecoration | QStyleOptionViewItem::HasCheckIndicator))
                           && !opt.text.contains(u'\n') && !opt.text.contains(QChar::LineSeparator);
    if (!plainCell) {
        QStyledItemDelegate::paint(painter, option, index);
        return;
    }
    const QWidget *widget = opt.widget;
    const QStyle *style = widget ? widget->style() : QApplication::style();
    const QString text = std::exchange(opt.text, QString());
    opt.features &= ~QStyleOptionViewItem::HasDisplay;
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget); // background, selection, focus

    if (text.isEmpty())
        return;
    // The margins the style gives item text.
    const int margin = style->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, widget) + 1;
    const QRect area = opt.rect.adjusted(margin, 0, -margin, 0);
    if (area.width() <= 0)
        return;
    const Laid &laid = laidOut(text, opt, area.width());
    QPalette::ColorGroup group = (opt.state & QStyle::State_Enabled) ? QPalette::Normal : QPalette::Disabled;
    if (group == QPalette::Normal && !(opt.state & QStyle::State_Active))
        group = QPalette::Inactive;
    const bool selected = opt.state & QStyle::State_Selected;
    const QRect at = QStyle::alignedRect(opt.direction, opt.displayAlignment, laid.size, area);
    painter->save();
    painter->setFont(opt.font);
    painter->setPen(opt.palette.color(group, selected ? QPalette::HighlightedText : QPalette::Text));
    painter->drawStaticText(at.topLeft(), laid.text);
    painter->restore();
}
