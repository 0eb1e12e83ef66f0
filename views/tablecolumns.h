#pragma once

#include <QHash>
#include <QObject>
#include <QPointer>
#include <QSet>

class QModelIndex;
class QTableView;
class QTimer;
class WrappingLabel;

// The one eliding and sizing policy of every table view (ARCHITECTURE.md, Views: tables). Columns are sized
// to their content within limits (at least their header, at most a number of characters) from the rows on
// screen, when the model resets, its layout changes or the screen fills, until the operator resizes one by
// hand; the last column takes the rest. Values that change later only widen a column whose text no longer
// fits (a verdict turning "contradicted"), so a live table never shrinks under the operator's eyes. A cell
// that cannot show its text whole shows the whole of it in its tooltip (the model's own tooltip wins), and
// text is elided in the middle, so values that share a long beginning (two failure reasons) stay apart. Where
// a row cannot show enough, detailPane() is a wrapping pane under the table with every column of the selected
// row in full.
class TableColumns final : public QObject {
    Q_OBJECT
public:
    static constexpr int DefaultMaxChars = 40;

    // Owned by the table; applying twice returns the first.
    static TableColumns *apply(QTableView *table, int maxChars = DefaultMaxChars);
    static TableColumns *of(const QTableView *table);

    void setMaxChars(int column, int chars);
    // Created on first call; the view puts it in its layout.
    WrappingLabel *detailPane();
    // Sizes the columns now (they are also sized on their own when the model changes).
    void fit();
    // The whole text of a cell whose text does not fit its width, else empty (the tooltip's text).
    QString clippedText(int row, int column) const;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    TableColumns(QTableView *table, int maxChars);
    void fitSoon();
    void growSoon();
    void fitColumns(bool growOnly);
    void showCurrentRow();
    int contentWidth(int column) const;
    int textWidth(const QModelIndex &index, const QString &text) const;
    bool tableAlive() const;

    QTableView *m_table;
    // The same object seen as the QWidget it still is while ~QWidget deletes its children (a QTableWidget's
    // model among them, which resets on its way out).
    QWidget *m_widget;
    int m_maxChars;
    QHash<int, int> m_maxCharsByColumn;
    QSet<int> m_resizedByHand;
    bool m_fitting = false;
    bool m_filled = false; // the rows on screen were measured once since the last reset
    bool m_fitPending = false; // the timer sizes every column, not only the ones that grow
    QTimer *m_fitTimer;
    QPointer<WrappingLabel> m_detail;
};
