#include "summarystrip.h"

using namespace Qt::StringLiterals;

SummaryStrip::SummaryStrip(QWidget *parent)
    : QLabel(parent)
{
    setObjectName(u"summaryStrip"_s);
    setTextFormat(Qt::RichText);
    setWordWrap(true);
    setTextInteractionFlags(Qt::LinksAccessibleByMouse | Qt::LinksAccessibleByKeyboard);
    setContentsMargins(6, 2, 6, 2);
    setAccessibleName(tr("Status at a glance"));
    connect(this, &QLabel::linkActivated, this, [this](const QString &link) {
        bool ok = false;
        const int index = link.toInt(&ok);
        if (ok)
            activate(index);
    });
    hide(); // until there is something to say
}

void SummaryStrip::setItems(const QList<DeskSummary::Item> &items)
{
    m_items = items;
    QStringList parts;
    for (qsizetype i = 0; i < items.size(); ++i) {
        const DeskSummary::Item &item = items[i];
        const QString text = item.text.toHtmlEscaped();
        // Links carry only the part's index: names never become markup or addresses.
        parts << (item.attention ? u"<a href=\"%1\"><b>%2</b></a>"_s : u"<a href=\"%1\">%2</a>"_s)
                     .arg(i)
                     .arg(text);
    }
    setText(parts.join(u" &nbsp;·&nbsp; "_s));
    setToolTip(plainText());
    setVisible(!items.isEmpty());
}

QString SummaryStrip::plainText() const
{
    QStringList parts;
    for (const DeskSummary::Item &item : m_items)
        parts << item.text;
    return parts.join(u" · "_s);
}

void SummaryStrip::activate(int index)
{
    if (index >= 0 && index < m_items.size())
        Q_EMIT viewRequested(m_items[index].view, m_items[index].subject);
}

QSize SummaryStrip::minimumSizeHint() const
{
    // A wrapped label's own hint is its longest word; a few characters are enough, the rest wraps.
    QSize hint = QLabel::minimumSizeHint();
    hint.setWidth(std::min(hint.width(), fontMetrics().averageCharWidth() * 20));
    return hint;
}
