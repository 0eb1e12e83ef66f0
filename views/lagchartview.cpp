#include "lagchartview.h"

#include "models/lagseriesstore.h"
#include "views/qcustomplotinclude.h"

#include <QComboBox>
#include <QDateTime>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QTimer>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace {
const QColor seriesColors[] = {QColor(0x1f, 0x77, 0xb4), QColor(0xff, 0x7f, 0x0e), QColor(0x2c, 0xa0, 0x2c),
                               QColor(0xd6, 0x27, 0x28), QColor(0x94, 0x67, 0xbd), QColor(0x8c, 0x56, 0x4b),
                               QColor(0xe3, 0x77, 0xc2), QColor(0x7f, 0x7f, 0x7f), QColor(0xbc, 0xbd, 0x22),
                               QColor(0x17, 0xbe, 0xcf)};
constexpr int redrawIntervalMs = 250;
} // namespace

LagChartView::LagChartView(LagSeriesStore *store, QWidget *parent)
    : QWidget(parent)
    , m_store(store)
    , m_scope(new QComboBox(this))
    , m_metric(new QComboBox(this))
    , m_range(new QComboBox(this))
    , m_side(new QComboBox(this))
    , m_lagPlot(new QCustomPlot(this))
    , m_ratePlot(new QCustomPlot(this))
    , m_lagReadout(new QLabel(this))
    , m_rateReadout(new QLabel(this))
    , m_redraw(new QTimer(this))
{
    m_scope->addItem(tr("All groups"), QString());
    m_metric->addItem(QString());
    m_metric->addItem(QString());
    nameMetrics();
    const QList<QPair<QString, int>> ranges = {{tr("5 min"), 300},
                                               {tr("15 min"), 900},
                                               {tr("1 h"), 3600},
                                               {tr("6 h"), 6 * 3600},
                                               {tr("24 h"), 24 * 3600}};
    for (const auto &[label, seconds] : ranges)
        m_range->addItem(label, seconds);
    m_range->setCurrentIndex(1);
    // Order follows LagSeriesStore::Side.
    m_side->addItem(tr("DLQ arrivals (messages/min)"), tr("DLQ arrivals (messages/min)"));
    m_side->addItem(tr("Duplicates (messages/min)"), tr("Duplicates (messages/min)"));
    m_side->addItem(tr("Inbox failures (failed or parked rows)"), tr("Failed or parked rows"));
    auto *exportButton = new QPushButton(tr("Export PNG…"), this);
    auto *latest = new QPushButton(tr("Follow latest"), this);
    for (QLabel *readout : {m_lagReadout, m_rateReadout}) {
        readout->setTextFormat(Qt::PlainText); // group and topic names are data
        readout->setMinimumHeight(readout->fontMetrics().height() + 4);
    }

    setUpPlot(m_lagPlot, tr("Lag (messages)"));
    setUpPlot(m_ratePlot, tr("DLQ arrivals (messages/min)"));
    m_ratePlot->setMaximumHeight(260);

    auto *controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Show:"), this));
    controls->addWidget(m_scope);
    controls->addWidget(m_metric);
    controls->addWidget(new QLabel(tr("Range:"), this));
    controls->addWidget(m_range);
    controls->addStretch(1);
    controls->addWidget(latest);
    controls->addWidget(exportButton);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addWidget(m_lagPlot, 3);
    layout->addWidget(m_lagReadout);
    auto *sideControls = new QHBoxLayout;
    sideControls->addWidget(new QLabel(tr("Below:"), this));
    sideControls->addWidget(m_side);
    sideControls->addStretch(1);
    layout->addLayout(sideControls);
    layout->addWidget(m_ratePlot, 2);
    layout->addWidget(m_rateReadout);

    m_redraw->setSingleShot(true);
    m_redraw->setInterval(redrawIntervalMs);
    connect(m_redraw, &QTimer::timeout, this, &LagChartView::redrawNow);
    connect(m_store, &LagSeriesStore::appended, this, [this] {
        rebuildScopes();
        scheduleRedraw();
    });
    connect(m_scope, &QComboBox::currentIndexChanged, this, &LagChartView::nameMetrics);
    for (QComboBox *box : {m_scope, m_metric, m_range, m_side})
        connect(box, &QComboBox::currentIndexChanged, this, [this] {
            m_followLatest = true;
            redrawNow();
        });
    connect(latest, &QPushButton::clicked, this, [this] {
        m_followLatest = true;
        redrawNow();
    });
    connect(exportButton, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export chart"), u"berth-lag.png"_s,
                                                          tr("PNG images (*.png)"));
        if (!path.isEmpty())
            exportPng(path);
    });
    for (QCustomPlot *plot : {m_lagPlot, m_ratePlot}) {
        QLabel *readout = plot == m_lagPlot ? m_lagReadout : m_rateReadout;
        connect(plot, &QCustomPlot::mouseMove, this, [this, plot, readout](QMouseEvent *event) {
            updateReadout(plot, readout, plot->xAxis->pixelToCoord(event->position().x()));
        });
        // Panning or zooming means the operator is reading the past: stop scrolling under them.
        connect(plot, &QCustomPlot::mouseWheel, this, [this] { m_followLatest = false; });
        connect(plot, &QCustomPlot::mousePress, this, [this] { m_followLatest = false; });
    }
}

void LagChartView::setUpPlot(QCustomPlot *plot, const QString &yLabel)
{
    QSharedPointer<QCPAxisTickerDateTime> ticker(new QCPAxisTickerDateTime);
    ticker->setDateTimeFormat(u"HH:mm:ss"_s);
    ticker->setDateTimeSpec(Qt::LocalTime);
    plot->xAxis->setTicker(ticker);
    plot->xAxis->setLabel(tr("Time (local)"));
    plot->yAxis->setLabel(yLabel);
    plot->legend->setVisible(true);
    plot->legend->setFont(plot->font());
    plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);
    plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    plot->axisRect()->setRangeDrag(Qt::Horizontal);
    plot->axisRect()->setRangeZoom(Qt::Horizontal);
    plot->setNoAntialiasingOnDrag(true);
    plot->setMinimumHeight(180);
}

void LagChartView::setRangeSeconds(int seconds)
{
    m_range->setCurrentIndex(std::max(0, m_range->findData(seconds)));
}

void LagChartView::setSideIndex(int index)
{
    m_side->setCurrentIndex(std::clamp(index, 0, m_side->count() - 1));
}

int LagChartView::sideIndex() const
{
    return m_side->currentIndex();
}

void LagChartView::nameMetrics()
{
    // What the lines are depends on the scope: a line per group, or one group's partitions a line each.
    const bool allGroups = m_scope->currentData().toString().isEmpty();
    m_metric->setItemText(0, allGroups ? tr("Lag (messages, each group's partitions summed)")
                                       : tr("Lag (messages, a line per partition)"));
    m_metric->setItemText(1, allGroups ? tr("Time lag (seconds, each group's worst partition)")
                                       : tr("Time lag (seconds, a line per partition)"));
}

QString LagChartView::metricText() const
{
    return m_metric->currentText();
}

void LagChartView::showGroup(const QString &group)
{
    rebuildScopes();
    const int index = m_scope->findData(group);
    m_scope->setCurrentIndex(std::max(0, index));
}

double LagChartView::rangeSeconds() const
{
    return m_range->currentData().toDouble();
}

void LagChartView::rebuildScopes()
{
    const QStringList groups = m_store->groups();
    if (m_scope->count() == groups.size() + 1)
        return;
    const QString current = m_scope->currentData().toString();
    const QSignalBlocker blocker(m_scope);
    while (m_scope->count() > 1)
        m_scope->removeItem(1);
    for (const QString &g : groups)
        m_scope->addItem(tr("Partitions of %1").arg(g), g);
    m_scope->setCurrentIndex(std::max(0, m_scope->findData(current)));
}

void LagChartView::scheduleRedraw()
{
    if (!m_redraw->isActive())
        m_redraw->start();
}

void LagChartView::fillGraphs(QCustomPlot *plot,
                              const QList<QPair<QString, QPair<QVector<double>, QVector<double>>>> &series)
{
    // Graphs are reused when the set of series is unchanged, so legend and styling stay put.
    while (plot->graphCount() > series.size())
        plot->removeGraph(plot->graphCount() - 1);
    for (qsizetype i = 0; i < series.size(); ++i) {
        QCPGraph *graph = i < plot->graphCount() ? plot->graph(int(i)) : plot->addGraph();
        const QColor color = seriesColors[i % std::size(seriesColors)];
        // Thin cosmetic pens without antialiasing keep a day of many series quick to redraw (FIGURE
        // chart_redraw_50x24h_ms in tests/bench/bench_lag.cpp).
        QPen pen(color, 1.0);
        pen.setCosmetic(true);
        graph->setPen(pen);
        graph->setAntialiased(false);
        const QVector<double> &keys = series[i].second.first;
        const QVector<double> &values = series[i].second.second;
        auto data = graph->data();
        // The usual redraw brings one new point per series: append it instead of copying the whole day.
        const bool sameSeries = graph->name() == series[i].first && !data->isEmpty() && !keys.isEmpty()
                                && data->constBegin()->key >= keys.constFirst()
                                && (data->constEnd() - 1)->key <= keys.constLast();
        if (sameSeries) {
            const double last = (data->constEnd() - 1)->key;
            const auto from = std::upper_bound(keys.cbegin(), keys.cend(), last) - keys.cbegin();
            for (qsizetype k = from; k < keys.size(); ++k)
                graph->addData(keys[k], values[k]);
            data->removeBefore(keys.constFirst());
        } else {
            graph->setName(series[i].first);
            graph->setData(keys, values, true);
        }
        graph->setAdaptiveSampling(true);
    }
}

void LagChartView::redrawNow()
{
    const auto metric = m_metric->currentIndex() == 0 ? LagSeriesStore::Metric::LagMessages
                                                      : LagSeriesStore::Metric::TimeLagSeconds;
    m_lagPlot->yAxis->setLabel(metric == LagSeriesStore::Metric::LagMessages ? tr("Lag (messages)")
                                                                             : tr("Time lag (s)"));
    QList<QPair<QString, QPair<QVector<double>, QVector<double>>>> lagSeries;
    const QString group = m_scope->currentData().toString();
    // Beyond an hour, a point per minute (its maximum) draws the same picture at a sixtieth of the cost.
    const bool coarse = rangeSeconds() > 3600;
    if (coarse != m_coarse) {
        m_coarse = coarse;
        m_lagPlot->clearGraphs();
    }
    if (group.isEmpty()) {
        for (const QString &g : m_store->groups()) {
            const auto s = m_store->groupSeries(g, metric, coarse);
            lagSeries.append({g, {s.keys, s.values}});
        }
    } else {
        const auto partitions = m_store->partitionSeries(group, metric);
        for (auto it = partitions.cbegin(); it != partitions.cend(); ++it)
            lagSeries.append({it.key(), {it->keys, it->values}});
    }
    fillGraphs(m_lagPlot, lagSeries);
    QList<QPair<QString, QPair<QVector<double>, QVector<double>>>> sideSeries;
    const auto side = m_store->sideSeries(LagSeriesStore::Side(m_side->currentIndex()));
    for (auto it = side.cbegin(); it != side.cend(); ++it)
        sideSeries.append({it.key(), {it->keys, it->values}});
    m_ratePlot->yAxis->setLabel(m_side->currentData().toString());
    fillGraphs(m_ratePlot, sideSeries);

    for (QCustomPlot *plot : {m_lagPlot, m_ratePlot}) {
        if (m_followLatest) {
            const double now = double(QDateTime::currentMSecsSinceEpoch()) / 1000.0;
            plot->xAxis->setRange(now - rangeSeconds(), now);
        }
        // Value axis from zero to the highest point in view (lag and rates are never negative).
        double top = 1;
        for (int i = 0; i < plot->graphCount(); ++i) {
            bool found = false;
            const QCPRange r = plot->graph(i)->getValueRange(found, QCP::sdBoth, plot->xAxis->range());
            if (found)
                top = std::max(top, r.upper);
        }
        plot->yAxis->setRange(0, top * 1.1);
        plot->replot(QCustomPlot::rpQueuedReplot);
    }
}

void LagChartView::updateReadout(QCustomPlot *plot, QLabel *label, double key)
{
    QStringList parts;
    for (int i = 0; i < plot->graphCount(); ++i) {
        const auto data = plot->graph(i)->data();
        if (data->isEmpty())
            continue;
        auto it = data->findBegin(key, false);
        if (it == data->constEnd())
            --it;
        if (!qIsNaN(it->value))
            parts << plot->graph(i)->name() + u": " + QString::number(it->value, 'f', it->value < 10 ? 1 : 0);
    }
    const QString when = QDateTime::fromMSecsSinceEpoch(qint64(key * 1000)).toString(u"HH:mm:ss"_s);
    label->setText(parts.isEmpty() ? QString() : when + u" — " + parts.join(u"   "));
}

bool LagChartView::exportPng(const QString &path)
{
    return m_lagPlot->savePng(path, 0, 0, 1.0, -1);
}
