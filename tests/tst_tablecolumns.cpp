#include "views/tablecolumns.h"
#include "views/wrappinglabel.h"

#include <QHeaderView>
#include <QHelpEvent>
#include <QStandardItemModel>
#include <QTableView>
#include <QTest>
#include <QToolTip>

using namespace Qt::StringLiterals;

// The one sizing and eliding policy of every table (ARCHITECTURE.md, Views: tables), offscreen.
class TestTableColumns final : public QObject {
    Q_OBJECT

    enum Column { Id, Key, Reason, Note, ColumnCount };

    static QList<QStandardItem *> row(const QString &id, const QString &key, const QString &reason)
    {
        return {new QStandardItem(id), new QStandardItem(key), new QStandardItem(reason),
                new QStandardItem(u"n"_s)};
    }

    static TableColumns *showWide(QTableView &table, QStandardItemModel &model)
    {
        table.setModel(&model);
        TableColumns *columns = TableColumns::apply(&table);
        table.resize(1400, 400);
        table.show();
        return columns;
    }

private Q_SLOTS:
    void columnsFitContentWithinLimitsAndShowTheRest()
    {
        // Two reasons that read the same for their first 120 characters.
        const QString common = u"Unexpected content at offset 17: "_s + QString(90, u'x') + u' ';
        const QString first = common + u"unterminated string"_s;
        const QString second = common + u"unexpected end of input"_s;
        QStandardItemModel model(0, ColumnCount);
        model.setHorizontalHeaderLabels({u"Id"_s, u"Key"_s, u"Reason"_s, u"Note"_s});
        QTableView table;
        table.setModel(&model);
        TableColumns *columns = TableColumns::apply(&table);
        QCOMPARE(TableColumns::apply(&table), columns);
        QWidget *pane = columns->detailPane();
        table.resize(1400, 400);
        table.show();
        QVERIFY(QTest::qWaitForWindowExposed(&table));
        model.appendRow(row(u"1"_s, u"order-2026-11-26-000042-abcdef"_s, first));
        model.appendRow(row(u"2"_s, u"order-7"_s, second));

        // Key fits whole, the long reason is held to its limit; neither widens past what it needs.
        QTRY_VERIFY(columns->clippedText(0, Key).isEmpty() && table.columnWidth(Key) > 40);
        const int charWidth = table.fontMetrics().averageCharWidth();
        QVERIFY(table.columnWidth(Reason) <= TableColumns::DefaultMaxChars * charWidth);
        QVERIFY(table.columnWidth(Id) < table.columnWidth(Key));
        QCOMPARE(table.textElideMode(), Qt::ElideMiddle); // the two reasons' ends stay apart

        // The whole text is in the tooltip of a cell that cannot show it.
        QCOMPARE(columns->clippedText(1, Reason), second);
        const QRect cell = table.visualRect(model.index(1, Reason));
        QHelpEvent help(QEvent::ToolTip, cell.center(), table.viewport()->mapToGlobal(cell.center()));
        QApplication::sendEvent(table.viewport(), &help);
        QTRY_VERIFY(QToolTip::isVisible());
        QVERIFY2(QToolTip::text().contains(u"unexpected end of input"_s), qPrintable(QToolTip::text()));

        // The detail pane shows the current (selected) row whole, wrapped.
        table.setCurrentIndex(model.index(0, Id));
        auto *label = qobject_cast<WrappingLabel *>(pane);
        QVERIFY(label);
        QVERIFY(label->text().contains(u"Reason: "_s + first));
        QVERIFY(label->text().contains(u"Key: order-2026-11-26-000042-abcdef"_s));

        // A column the operator sized stays as it is when rows change.
        table.setColumnWidth(Key, 33);
        model.removeRows(0, model.rowCount());
        model.appendRow(row(u"3"_s, u"another-rather-long-key-value"_s, u"short"_s));
        QTest::qWait(200);
        QCOMPARE(table.columnWidth(Key), 33);
    }

    // A value that changes once the screen is filled (a checklist verdict turning "contradicted") widens
    // its column to show it whole; a shorter one never narrows it.
    void changedValuesWidenButNeverNarrow()
    {
        QStandardItemModel model(0, ColumnCount);
        model.setHorizontalHeaderLabels({u"Id"_s, u"Key"_s, u"Reason"_s, u"Note"_s});
        for (int i = 0; i < 80; ++i) // more than the screen shows: it is filled
            model.appendRow(row(QString::number(i), u"k"_s, u"r"_s));
        QTableView table;
        TableColumns *columns = showWide(table, model);
        QVERIFY(QTest::qWaitForWindowExposed(&table));
        QTest::qWait(200); // measured once: the screen is full
        const int before = table.columnWidth(Key);

        model.setData(model.index(3, Key), u"contradicted by what Berth sees"_s);
        QTRY_VERIFY(columns->clippedText(3, Key).isEmpty());
        const int widened = table.columnWidth(Key);
        QVERIFY(widened > before);

        model.setData(model.index(3, Key), u"k"_s);
        QTest::qWait(200);
        QCOMPARE(table.columnWidth(Key), widened);
    }

    // A cell with a font of its own (an active alert's bold row) is sized and clipped in that font.
    void cellsAreMeasuredInTheirOwnFont()
    {
        QStandardItemModel model(0, ColumnCount);
        model.setHorizontalHeaderLabels({u"Id"_s, u"Key"_s, u"Reason"_s, u"Note"_s});
        QList<QStandardItem *> cells = row(u"1"_s, u"order-projection/orders"_s, u"r"_s);
        QFont big = QApplication::font();
        big.setBold(true);
        big.setPointSizeF(big.pointSizeF() * 1.3); // wider than the regular font, within the limit
        cells.at(Key)->setFont(big);
        model.appendRow(cells);
        QTableView table;
        TableColumns *columns = showWide(table, model);
        QVERIFY(QTest::qWaitForWindowExposed(&table));
        const int needed = QFontMetrics(big).horizontalAdvance(u"order-projection/orders"_s);
        QTRY_VERIFY2(table.columnWidth(Key) >= needed,
                     qPrintable(u"%1 px for text that needs %2"_s.arg(table.columnWidth(Key)).arg(needed)));
        QVERIFY(columns->clippedText(0, Key).isEmpty());
    }
};

QTEST_MAIN(TestTableColumns)
#include "tst_tablecolumns.moc"
