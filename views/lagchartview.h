#pragma once

#include <QWidget>

class LagSeriesStore;
class QCPGraph;
class QCustomPlot;
class QComboBox;
class QLabel;
class QTimer;

// Lag history per group (or one group's partitions) above; below, a chosen side figure: DLQ arrivals,
// duplicates, or inbox failures.
// Redraws are coalesced: new samples schedule one replot, never one per series.
class LagChartView final : public QWidget {
    Q_OBJECT
public:
    explicit LagChartView(LagSeriesStore *store, QWidget *parent = nullptr);

    void showGroup(const QString &group); // drill down: that group's partitions; empty: all groups
    void setRangeSeconds(int seconds);     // one of the offered ranges: 300, 900, 3600, 21600, 86400
    void setSideIndex(int index);          // LagSeriesStore::Side as an index
    int sideIndex() const;
    int rangeSecondsSetting() const { return int(rangeSeconds()); }
    bool exportPng(const QString &path);
    QCustomPlot *lagPlot() const { return m_lagPlot; }
    void redrawNow();
    QString metricText() const; // what the lag plot's lines are, as the metric box says

private:
    void nameMetrics();
    void scheduleRedraw();
    void rebuildScopes();
    void updateReadout(QCustomPlot *plot, QLabel *label, double key);
    static void setUpPlot(QCustomPlot *plot, const QString &yLabel);
    void fillGraphs(QCustomPlot *plot, const QList<QPair<QString, QPair<QVector<double>, QVector<double>>>> &series);
    double rangeSeconds() const;

    LagSeriesStore *m_store;
    QComboBox *m_scope;
    QComboBox *m_metric;
    QComboBox *m_range;
    QComboBox *m_side;
    QCustomPlot *m_lagPlot;
    QCustomPlot *m_ratePlot;
    QLabel *m_lagReadout;
    QLabel *m_rateReadout;
    QTimer *m_redraw;
    bool m_followLatest = true; // until the operator pans or zooms
    bool m_coarse = false;      // the lag plot shows per-minute maxima
};
