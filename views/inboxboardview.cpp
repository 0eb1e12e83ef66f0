#include "inboxboardview.h"

#include "views/tablecolumns.h"
#include "wrappinglabel.h"

#include "models/inboxboardmodel.h"

#include <QBrush>
#include <QColor>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QTableView>
#include <QTextDocument>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "views/qcustomplotinclude.h"

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace {
QLabel *plainLabel(QWidget *parent)
{
    return new WrappingLabel(parent); // database text is data, never markup: plain text
}

QLabel *sectionTitle(const QString &text, QWidget *parent)
{
    auto *label = new QLabel(text, parent);
    label->setTextFormat(Qt::PlainText);
    QFont font = label->font();
    font.setBold(true);
    label->setFont(font);
    return label;
}
} // namespace

InboxBoardView::InboxBoardView(InboxBoardModel *model, QWidget *parent)
    : QWidget(parent)
    , m_model(model)
    , m_selector(new QComboBox(this))
    , m_refresh(new QPushButton(tr("Refresh"), this))
    , m_status(plainLabel(this))
    , m_indexWarning(plainLabel(this))
    , m_table(new QTableView(this))
    , m_stuck(plainLabel(this))
    , m_outbox(plainLabel(this))
    , m_redelivery(plainLabel(this))
    , m_plot(new QCustomPlot(this))
    , m_bars(new QCPBars(m_plot->xAxis, m_plot->yAxis))
    , m_noAttempts(plainLabel(this))
    , m_errors(new QTreeWidget(this))
{
    m_selector->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_selector->setToolTip(tr("Which inbox table to read, and how its status words map onto Berth's states"));
    connect(m_selector, &QComboBox::currentIndexChanged, this, &InboxBoardView::requestRefresh);
    connect(m_refresh, &QPushButton::clicked, this, &InboxBoardView::requestRefresh);

    m_indexWarning->setStyleSheet(
        u"QLabel { background: #fff3cd; color: #5c4400; border: 1px solid #e0c060; padding: 4px; }"_s);
    m_indexWarning->hide();

    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setAlternatingRowColors(true);
    m_table->verticalHeader()->hide();
    TableColumns::apply(m_table);

    // Attempts histogram: fixed categories, counts on an integer axis.
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (int b = 0; b < InboxBoard::AttemptBuckets; ++b)
        ticker->addTick(b + 1, InboxBoard::attemptBucketLabel(b));
    m_plot->xAxis->setTicker(ticker);
    m_plot->xAxis->setLabel(tr("Delivery attempts per message"));
    m_plot->xAxis->setRange(0.4, InboxBoard::AttemptBuckets + 0.6);
    m_plot->xAxis->grid()->setVisible(false);
    auto countTicker = QSharedPointer<QCPAxisTickerFixed>::create();
    countTicker->setTickStep(1);
    countTicker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    m_plot->yAxis->setTicker(countTicker);
    m_plot->yAxis->setLabel(tr("Inbox rows (messages)"));
    m_plot->yAxis->setRange(0, 1);
    m_bars->setWidth(0.7);
    m_bars->setPen(QPen(QColor(0x2b, 0x6c, 0xb0)));
    m_bars->setBrush(QColor(0x2b, 0x6c, 0xb0, 170));
    m_plot->setMinimumSize(280, 200);
    m_noAttempts->setText(tr("This inbox table has no attempts column."));
    m_noAttempts->hide();

    m_errors->setColumnCount(2);
    m_errors->setHeaderLabels({tr("Rows"), tr("Error")});
    m_errors->setRootIsDecorated(false);
    m_errors->setUniformRowHeights(true);
    m_errors->setWordWrap(false);
    m_errors->setTextElideMode(Qt::ElideRight);
    m_errors->header()->setStretchLastSection(true);
    m_errors->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);

    auto *top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Inbox:"), this));
    top->addWidget(m_selector);
    top->addWidget(m_refresh);
    auto *editMappings = new QPushButton(tr("Edit &mappings…"), this);
    editMappings->setObjectName(u"editMappings"_s);
    editMappings->setToolTip(
        tr("Map inbox and outbox tables in any database (saved to the connection profile)"));
    connect(editMappings, &QPushButton::clicked, this,
            [this] { Q_EMIT editMappingsRequested(currentMapping().name); });
    top->addWidget(editMappings);
    // The consumer shown: its rows in progress for too long, released for retry as a four-eyes request.
    auto *reclaim = new QPushButton(tr("&Reclaim stuck rows…"), this);
    reclaim->setObjectName(u"reclaimStuckRows"_s);
    reclaim->setToolTip(tr("Release the consumer's rows in progress for longer than a threshold and replay their "
                           "records, with a dry run, as a request another person approves"));
    connect(reclaim, &QPushButton::clicked, this, [this] {
        if (!currentMapping().name.isEmpty())
            Q_EMIT reclaimRequested(currentMapping().name);
    });
    top->addWidget(reclaim);
    top->addStretch(1);

    m_attemptsPane = new QWidget(this);
    auto *attempts = new QVBoxLayout(m_attemptsPane);
    attempts->setContentsMargins(0, 0, 0, 0);
    attempts->addWidget(sectionTitle(tr("Attempts histogram"), this));
    attempts->addWidget(m_plot, 1);
    auto *errors = new QVBoxLayout;
    errors->addWidget(sectionTitle(tr("Top errors (rows not completed)"), this));
    errors->addWidget(m_errors, 1);
    auto *bottom = new QHBoxLayout;
    bottom->addWidget(m_attemptsPane, 1);
    bottom->addLayout(errors, 1);

    // The consumer table is as tall as its rows (a scroll bar past a dozen); what is left goes to the
    // histogram and the errors, so one consumer leaves no empty band.
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_status);
    layout->addWidget(m_indexWarning);
    layout->addWidget(m_table);
    layout->addWidget(m_stuck);
    layout->addWidget(m_outbox);
    layout->addWidget(m_redelivery);
    layout->addWidget(m_noAttempts);
    layout->addLayout(bottom, 1);

    setMappings({});
}

void InboxBoardView::setMappings(const QList<InboxMapping> &mappings)
{
    // Programmatic: no refresh request; the owner decides when to read.
    const QSignalBlocker blocker(m_selector);
    m_mappings = mappings;
    m_selector->clear();
    for (const InboxMapping &mapping : mappings)
        m_selector->addItem(mapping.name);
    m_selector->setCurrentIndex(mappings.isEmpty() ? -1 : 0);
    if (mappings.isEmpty())
        m_status->setText(tr("No inbox is mapped. State each consumer's inbox in the policy file "
                             "(deliverySemantics.consumers.<name>.inbox) or in the connection profile."));
}

InboxMapping InboxBoardView::currentMapping() const
{
    const int index = m_selector->currentIndex();
    return index >= 0 && index < m_mappings.size() ? m_mappings.at(index) : InboxMapping();
}

void InboxBoardView::requestRefresh()
{
    if (m_selector->currentIndex() < 0)
        return;
    m_status->setText(tr("Reading %1\u2026").arg(currentMapping().qualifiedTable()));
    Q_EMIT refreshRequested(currentMapping());
}

void InboxBoardView::setBoard(const InboxBoard &board)
{
    m_model->setBoard(board);
    m_status->setText(m_model->statusLine());
    m_status->setStyleSheet(board.ok() ? QString() : u"QLabel { color: #b03020; }"_s);
    const QString warning = m_model->indexWarning();
    m_indexWarning->setText(warning);
    m_indexWarning->setVisible(!warning.isEmpty());
    m_stuck->setText(m_model->stuckLine());
    m_stuck->setVisible(board.ok());
    m_outbox->setText(m_model->outboxLine());
    m_outbox->setVisible(board.ok());
    m_redelivery->setText(m_model->redeliveryLine());
    m_redelivery->setVisible(!m_redelivery->text().isEmpty());
    showHistogram(board);
    showErrors(board);
    fitTableHeight();
}

void InboxBoardView::fitTableHeight()
{
    constexpr int kRowsShown = 12;
    const int rows = std::clamp(m_model->rowCount(), 1, kRowsShown);
    const int height =
        m_table->horizontalHeader()->sizeHint().height()
        + rows * m_table->verticalHeader()->defaultSectionSize() + 2 * m_table->frameWidth()
        + (m_table->horizontalScrollBar()->isVisible() ? m_table->horizontalScrollBar()->sizeHint().height()
                                                       : 0);
    m_table->setFixedHeight(height);
}

void InboxBoardView::showHistogram(const InboxBoard &board)
{
    const bool show = board.ok() && board.hasAttempts;
    m_attemptsPane->setVisible(show);
    m_noAttempts->setVisible(board.ok() && !board.hasAttempts);
    QList<double> keys;
    QList<double> values;
    double highest = 0;
    if (show) {
        for (int b = 0; b < InboxBoard::AttemptBuckets; ++b) {
            keys << b + 1;
            values << double(board.attemptsHistogram[size_t(b)]);
            highest = std::max(highest, values.last());
        }
    }
    m_bars->setData(keys, values, true);
    m_plot->yAxis->setRange(0, std::max(1.0, highest * 1.1));
    m_plot->yAxis->setLabel(board.attemptsSampled ? tr("Inbox rows (estimated from a sample)") : tr("Inbox rows (messages)"));
    // A large range would print thousands of integer ticks; let the fixed step grow with the range.
    auto ticker = qSharedPointerDynamicCast<QCPAxisTickerFixed>(m_plot->yAxis->ticker());
    if (ticker)
        ticker->setTickStep(std::max(1.0, std::pow(10.0, std::floor(std::log10(std::max(1.0, highest))))));
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void InboxBoardView::showErrors(const InboxBoard &board)
{
    m_errors->clear();
    if (!board.ok())
        return;
    if (!board.hasErrors) {
        auto *item = new QTreeWidgetItem(m_errors);
        item->setText(1, tr("This inbox table has no error column."));
        return;
    }
    const QLocale locale;
    for (const InboxErrorCount &error : board.topErrors) {
        auto *item = new QTreeWidgetItem(m_errors);
        item->setText(0, locale.toString(error.count));
        item->setTextAlignment(0, Qt::AlignRight | Qt::AlignVCenter);
        // Item text is plain; the tooltip would guess at markup, so it gets explicitly escaped text.
        item->setText(1, error.error.simplified());
        item->setToolTip(1, Qt::convertFromPlainText(error.error, Qt::WhiteSpaceNormal));
    }
    if (board.errorsSampled) {
        auto *note = new QTreeWidgetItem(m_errors);
        note->setText(1, tr("(a large table: from each consumer and state's latest rows)"));
        note->setForeground(1, QBrush(QColor(0x88, 0x88, 0x88)));
    }
}
