#include "elidedlabel.h"

#include <QFontMetrics>
#include <QPainter>
#include <QStyle>

namespace {
constexpr int MinimumCharacters = 12; // enough to read the start of a state: "Database: co…"
constexpr int PreferredCharacters = 100;

QString oneLine(QString text)
{
    text.replace(QLatin1Char('\n'), QLatin1Char(' '));
    return text;
}
} // namespace

ElidedLabel::ElidedLabel(QWidget *parent, Qt::TextElideMode mode)
    : QLabel(parent)
    , m_mode(mode)
{
    setTextFormat(Qt::PlainText);
    setWordWrap(false);
}

QString ElidedLabel::shownText() const
{
    return fontMetrics().elidedText(oneLine(text()), m_mode, std::max(0, contentsRect().width()));
}

bool ElidedLabel::isElided() const
{
    return shownText() != oneLine(text());
}

QSize ElidedLabel::minimumSizeHint() const
{
    const QFontMetrics metrics(font());
    const QMargins m = contentsMargins();
    return {metrics.averageCharWidth() * MinimumCharacters + m.left() + m.right(),
            metrics.height() + m.top() + m.bottom()};
}

QSize ElidedLabel::sizeHint() const
{
    const QFontMetrics metrics(font());
    const QMargins m = contentsMargins();
    const int width = std::min(metrics.horizontalAdvance(oneLine(text())),
                               metrics.averageCharWidth() * PreferredCharacters);
    return {std::max(width + m.left() + m.right(), minimumSizeHint().width()),
            metrics.height() + m.top() + m.bottom()};
}

void ElidedLabel::paintEvent(QPaintEvent *)
{
    const QString shown = shownText();
    // The whole text where it does not fit; set here, where the width that decides it is known.
    const QString tip = shown == oneLine(text()) ? QString() : text();
    if (toolTip() != tip)
        setToolTip(tip);
    QPainter painter(this);
    style()->drawItemText(&painter, contentsRect(), int(alignment()), palette(), isEnabled(), shown,
                          foregroundRole());
}
