#include "tablecolumns.h"

#include "headerwidth.h"
#include "wrappinglabel.h"

#include <QHeaderView>
#include <QHelpEvent>
#include <QIcon>
#include <QTableView>
#include <QTimer>
#include <QToolTip>

#include <utility>

using namespace Qt::StringLiterals;

namespace {
constexpr int kCellMargins = 14;         // the style's text margins and the focus frame, both sides
constexpr int kRowsMeasuredAtLeast = 50; // before the table is laid out, its viewport is a few pixels high

QString firstLine(QString text)
{
    const qsizetype end = text.indexOf(u'\n');
    if (end >= 0)
        text.truncate(end);
    return text;
}
} // namespace

TableColumns *TableColumns::apply(QTableView *table, int maxChars)
{
    if (TableColumns *existing = of(table))
        return existing;
    return new TableColumns(table, maxChars);
}

TableColumns *TableColumns::of(const QTableView *table)
{
    return table->findChild<TableColumns *>(QString(), Qt::FindDirectChildrenOnly);
}

TableColumns::TableColumns(QTableView *table, int maxChars)
    : QObject(table)
    , m_table(table)
    , m_widget(table)
    , m_maxChars(maxChars)
    , m_fitTimer(new QTimer(this))
{
    m_fitTimer->setSingleShot(true);
    m_fitTimer->setInterval(50); // a burst of batches is measured once
    connect(m_fitTimer, &QTimer::timeout, this, [this] { fitColumns(!std::exchange(m_fitPending, false)); });
    table->setTextElideMode(Qt::ElideMiddle);
    table->setWordWrap(false);
    QHeaderView *header = table->horizontalHeader();
    header->setSectionResizeMode(QHeaderView::Interactive);
    header->setStretchLastSection(true);
    connect(header, &QHeaderView::sectionResized, this, [this](int column) {
        if (!m_fitting)
            m_resizedByHand.insert(column);
    });
    table->viewport()->installEventFilter(this);
    if (QAbstractItemModel *model = table->model()) {
        connect(model, &QAbstractItemModel::modelReset, this, [this] {
            m_filled = false;
            fitSoon();
        });
        connect(model, &QAbstractItemModel::layoutChanged, this, &TableColumns::fitSoon);
        // Rows that arrive while the screen is still filling are measured; later ones keep the widths.
        connect(model, &QAbstractItemModel::rowsInserted, this, [this] {
            if (!m_filled)
                fitSoon();
        });
        connect(model, &QAbstractItemModel::dataChanged, this, [this] {
            if (m_filled)
                growSoon();
            else
                fitSoon();
        });
        fitSoon();
    }
}

void TableColumns::setMaxChars(int column, int chars)
{
    m_maxCharsByColumn.insert(column, chars);
    fitSoon();
}

void TableColumns::fitSoon()
{
    m_fitPending = true;
    m_fitTimer->start();
}

void TableColumns::growSoon()
{
    if (!m_fitTimer->isActive())
        m_fitTimer->start();
}

int TableColumns::textWidth(const QModelIndex &index, const QString &text) const
{
    // A cell drawn in a font of its own (an active alert's bold row) is measured in that font.
    const QVariant font = index.data(Qt::FontRole);
    return QFontMetrics(font.isValid() ? font.value<QFont>() : m_table->font()).horizontalAdvance(text);
}

int TableColumns::contentWidth(int column) const
{
    const QAbstractItemModel *model = m_table->model();
    const int rows = model->rowCount();
    const int rowHeight = std::max(1, m_table->verticalHeader()->defaultSectionSize());
    const int first = std::max(0, m_table->rowAt(0));
    const int shown = std::max(kRowsMeasuredAtLeast, m_table->viewport()->height() / rowHeight + 1);
    int widest = 0;
    for (int row = first; row < std::min(rows, first + shown); ++row) {
        const QModelIndex index = model->index(row, column);
        int width = textWidth(index, firstLine(index.data().toString()));
        if (!index.data(Qt::DecorationRole).isNull())
            width += m_table->iconSize().isValid() ? m_table->iconSize().width() + 4 : 20;
        widest = std::max(widest, width);
    }
    return widest + kCellMargins;
}

void TableColumns::fit()
{
    m_fitPending = false;
    fitColumns(false);
}

void TableColumns::fitColumns(bool growOnly)
{
    const QAbstractItemModel *model = m_table->model();
    if (!model)
        return;
    const QHeaderView *header = m_table->horizontalHeader();
    const int columns = model->columnCount();
    int last = -1; // the last visible column stretches
    for (int visual = header->count() - 1; visual >= 0 && last < 0; --visual) {
        if (!header->isSectionHidden(header->logicalIndex(visual)))
            last = header->logicalIndex(visual);
    }
    const int charWidth = QFontMetrics(m_table->font()).averageCharWidth();
    m_fitting = true;
    for (int c = 0; c < columns; ++c) {
        if (c == last || header->isSectionHidden(c) || m_resizedByHand.contains(c))
            continue;
        const int least = HeaderWidth::of(m_table, c);
        const int most = std::max(least, m_maxCharsByColumn.value(c, m_maxChars) * charWidth);
        const int width = std::clamp(contentWidth(c), least, most);
        if (!growOnly || width > m_table->columnWidth(c))
            m_table->setColumnWidth(c, width);
    }
    m_fitting = false;
    if (growOnly)
        return;
    const int rowHeight = std::max(1, m_table->verticalHeader()->defaultSectionSize());
    m_filled =
        model->rowCount() >= std::max(kRowsMeasuredAtLeast, m_table->viewport()->height() / rowHeight + 1);
}

QString TableColumns::clippedText(int row, int column) const
{
    const QModelIndex index = m_table->model()->index(row, column);
    const QString text = index.data().toString();
    if (text.isEmpty())
        return {};
    int needed = textWidth(index, firstLine(text)) + kCellMargins;
    if (!index.data(Qt::DecorationRole).isNull())
        needed += 20;
    return needed > m_table->columnWidth(column) || text.contains(u'\n') ? text : QString();
}

bool TableColumns::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() != QEvent::ToolTip || watched != m_table->viewport())
        return QObject::eventFilter(watched, event);
    auto *help = static_cast<QHelpEvent *>(event);
    const QModelIndex index = m_table->indexAt(help->pos());
    if (!index.isValid() || !index.data(Qt::ToolTipRole).toString().isEmpty())
        return false; // the model's own tooltip
    const QString text = clippedText(index.row(), index.column());
    if (text.isEmpty()) {
        QToolTip::hideText();
        return true;
    }
    // Escaped inside <qt>: a key or a reason that looks like markup is shown as the text it is.
    QToolTip::showText(help->globalPos(),
                       u"<qt style=\"white-space:pre-wrap\">"_s + text.toHtmlEscaped() + u"</qt>"_s,
                       m_table->viewport(), m_table->visualRect(index));
    return true;
}

WrappingLabel *TableColumns::detailPane()
{
    if (m_detail)
        return m_detail;
    m_detail = new WrappingLabel;
    m_detail->setObjectName(u"tableDetailPane"_s);
    m_detail->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_detail->setContentsMargins(4, 2, 4, 2);
    if (QAbstractItemModel *model = m_table->model()) {
        connect(m_table->selectionModel(), &QItemSelectionModel::currentChanged, this,
                &TableColumns::showCurrentRow);
        connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this,
                &TableColumns::showCurrentRow);
        connect(model, &QAbstractItemModel::dataChanged, this, &TableColumns::showCurrentRow);
        connect(model, &QAbstractItemModel::modelReset, this, &TableColumns::showCurrentRow);
        connect(model, &QAbstractItemModel::layoutChanged, this, &TableColumns::showCurrentRow);
    }
    showCurrentRow();
    return m_detail;
}

bool TableColumns::tableAlive() const
{
    // A virtual call through the QWidget pointer is defined during ~QWidget and answers as a QWidget.
    return m_widget->metaObject()->inherits(&QTableView::staticMetaObject);
}

void TableColumns::showCurrentRow()
{
    if (!m_detail || !tableAlive())
        return;
    // The selected row, not the focus frame a table draws on its current cell without selecting it: the
    // pane says what the actions beside it act on.
    const QModelIndex current = m_table->currentIndex();
    QStringList lines;
    if (current.isValid()
        && m_table->selectionModel()->rowIntersectsSelection(current.row(), current.parent())) {
        const QAbstractItemModel *model = m_table->model();
        for (int c = 0; c < model->columnCount(); ++c) {
            if (m_table->isColumnHidden(c))
                continue;
            const QString text = model->index(current.row(), c).data().toString();
            if (!text.isEmpty())
                lines << model->headerData(c, Qt::Horizontal).toString() + u": "_s + text;
        }
    }
    m_detail->setText(lines.join(u'\n'));
    m_detail->setVisible(!lines.isEmpty());
}
