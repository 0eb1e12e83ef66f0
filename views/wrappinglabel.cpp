#include "wrappinglabel.h"

#include <QFontMetrics>
#include <QPainter>
#include <QRegularExpression>
#include <QStyle>

namespace {
constexpr int MinimumCharacters = 20;
constexpr int PreferredCharacters = 100;
constexpr int WrapFlags = Qt::TextWordWrap | Qt::TextWrapAnywhere;
} // namespace

WrappingLabel::WrappingLabel(QWidget *parent)
    : QLabel(parent)
{
    setTextFormat(Qt::PlainText);
    setWordWrap(true);
    setTextInteractionFlags(Qt::TextSelectableByMouse);
    QSizePolicy policy(QSizePolicy::Preferred, QSizePolicy::Preferred);
    policy.setHeightForWidth(true);
    setSizePolicy(policy);
}

bool WrappingLabel::fitsWordByWord(int width) const
{
    static const QRegularExpression blanks(QStringLiteral("\\s+"));
    const QFontMetrics metrics(font());
    for (const QString &word : text().split(blanks, Qt::SkipEmptyParts)) {
        if (metrics.horizontalAdvance(word) > width)
            return false;
    }
    return true;
}

QSize WrappingLabel::minimumSizeHint() const
{
    const QFontMetrics metrics(font());
    const QMargins m = contentsMargins();
    const int width = metrics.averageCharWidth() * MinimumCharacters + m.left() + m.right();
    return {width, text().isEmpty() ? 0 : metrics.height() + m.top() + m.bottom()};
}

QSize WrappingLabel::sizeHint() const
{
    const QFontMetrics metrics(font());
    const QMargins m = contentsMargins();
    const int width =
        std::min(metrics.horizontalAdvance(text()), metrics.averageCharWidth() * PreferredCharacters) + m.left()
        + m.right();
    const int w = std::max(width, minimumSizeHint().width());
    return {w, heightForWidth(w)};
}

int WrappingLabel::heightForWidth(int width) const
{
    if (text().isEmpty())
        return 0;
    const QMargins m = contentsMargins();
    const int inner = std::max(1, width - m.left() - m.right());
    const QRect bounds = QFontMetrics(font()).boundingRect(QRect(0, 0, inner, 1 << 20), WrapFlags, text());
    return bounds.height() + m.top() + m.bottom();
}

void WrappingLabel::paintEvent(QPaintEvent *event)
{
    if (fitsWordByWord(contentsRect().width())) {
        QLabel::paintEvent(event); // Qt's own wrapping, with selection
        return;
    }
    QPainter painter(this);
    style()->drawItemText(&painter, contentsRect(), int(alignment()) | WrapFlags, palette(), isEnabled(), text(),
                          foregroundRole());
}
