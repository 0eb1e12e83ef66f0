// The entry table's delegate: it must paint what Qt's own delegate paints (plain, elided, selected), and
// keep its cache of laid-out text bounded and reused across repaints.
#include "views/cachedtextdelegate.h"

#include <QtTest>
#include <QtWidgets>

using namespace Qt::StringLiterals;

class TestCachedTextDelegate : public QObject {
    Q_OBJECT

    // A table of texts an operator meets: long reasons (elided), markup and ANSI escapes (shown as text),
    // right-aligned numbers, coloured cells, empty cells.
    static void fill(QStandardItemModel &model)
    {
        const QStringList texts{u"orders [2] @ 1"_s,
                                u"<b>bold?</b> <img src=x onerror=alert(1)>"_s,
                                u"No handler for event type OrderTeleported (order order-7) after many words more"_s,
                                u"\x1b[31mred\x1b[0m"_s,
                                QString(),
                                u"Zahlungsempfänger — Ünïcödé ✓"_s};
        model.setColumnCount(3);
        for (int r = 0; r < 12; ++r) {
            QList<QStandardItem *> row;
            auto *text = new QStandardItem(texts.at(r % texts.size()));
            auto *number = new QStandardItem(QString::number(r * 1234));
            number->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            auto *status = new QStandardItem(r % 2 ? u"COMPLETED"_s : u"—"_s);
            if (r % 2)
                status->setForeground(QColor(0x1e, 0x7b, 0x34));
            row << text << number << status;
            model.appendRow(row);
        }
    }

    static QImage render(QAbstractItemDelegate *delegate, QStandardItemModel &model, bool select)
    {
        QTableView table;
        table.setItemDelegate(delegate);
        table.setModel(&model);
        table.setAlternatingRowColors(true);
        table.setWordWrap(false);
        table.verticalHeader()->hide();
        table.setColumnWidth(0, 180);
        table.resize(480, 300);
        if (select)
            table.selectRow(2);
        table.show();
        if (!QTest::qWaitForWindowExposed(&table))
            return {};
        return table.viewport()->grab().toImage().convertToFormat(QImage::Format_RGB32);
    }

    // How many pixels differ clearly between two images of the same size.
    static int differingPixels(const QImage &a, const QImage &b)
    {
        int n = 0;
        for (int y = 0; y < a.height(); ++y) {
            for (int x = 0; x < a.width(); ++x) {
                const QRgb p = a.pixel(x, y), q = b.pixel(x, y);
                if (qAbs(qRed(p) - qRed(q)) + qAbs(qGreen(p) - qGreen(q)) + qAbs(qBlue(p) - qBlue(q)) > 96)
                    ++n;
            }
        }
        return n;
    }

    static int inkPixels(const QImage &image)
    {
        int n = 0;
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x)
                n += qGray(image.pixel(x, y)) < 128;
        return n;
    }

private Q_SLOTS:
    void paintsWhatTheStockDelegatePaints_data()
    {
        QTest::addColumn<bool>("select");
        QTest::newRow("plain") << false;
        QTest::newRow("a selected row") << true;
    }

    void paintsWhatTheStockDelegatePaints()
    {
        QFETCH(bool, select);
        QStandardItemModel model;
        fill(model);
        QStyledItemDelegate stock;
        CachedTextDelegate cached;
        const QImage expected = render(&stock, model, select);
        const QImage actual = render(&cached, model, select);
        QVERIFY(!expected.isNull());
        QCOMPARE(actual.size(), expected.size());
        // The text is really there (a blank table would also "match" a blank one).
        QVERIFY2(inkPixels(actual) > 500, qPrintable(QString::number(inkPixels(actual))));
        // Right-aligned numbers sit on whole pixels here and on fractional ones in Qt's layout, which changes
        // their anti-aliasing (under 1,000 pixels); a shift by one pixel, markup rendered, no elision, wrong
        // colours or missing cells change many thousands.
        const int differing = differingPixels(expected, actual);
        QVERIFY2(differing < actual.width() * actual.height() / 50, qPrintable(QString::number(differing)));
        QVERIFY(cached.cachedCount() > 0);
    }

    void repaintsReuseTheCacheAndItStaysBounded()
    {
        QStandardItemModel model;
        fill(model);
        CachedTextDelegate cached;
        render(&cached, model, false);
        const qsizetype afterFirst = cached.cachedCount();
        render(&cached, model, false);
        QCOMPARE(cached.cachedCount(), afterFirst); // same texts, same widths: nothing laid out again

        // Far more distinct texts than the capacity: the cache restarts instead of growing.
        QStandardItemModel many(CachedTextDelegate::kCapacity + 500, 1);
        for (int r = 0; r < many.rowCount(); ++r)
            many.setItem(r, 0, new QStandardItem(u"reason %1"_s.arg(r)));
        QTableView table;
        table.setItemDelegate(&cached);
        table.setModel(&many);
        table.resize(300, 4000);
        QImage canvas(300, 24, QImage::Format_RGB32);
        QPainter painter(&canvas);
        QStyleOptionViewItem option;
        option.initFrom(&table);
        option.rect = QRect(0, 0, 300, 24);
        option.font = table.font();
        option.fontMetrics = table.fontMetrics();
        for (int r = 0; r < many.rowCount(); ++r) {
            cached.paint(&painter, option, many.index(r, 0));
            QVERIFY(cached.cachedCount() <= CachedTextDelegate::kCapacity);
        }
        QVERIFY(cached.cachedCount() > 0);
    }

    void cellsWithIconsTakeTheStockPath()
    {
        QStandardItemModel model(1, 1);
        auto *item = new QStandardItem(QApplication::style()->standardIcon(QStyle::SP_MessageBoxWarning), u"warn"_s);
        model.setItem(0, 0, item);
        CachedTextDelegate cached;
        const QImage image = render(&cached, model, false);
        QVERIFY(!image.isNull());
        QCOMPARE(cached.cachedCount(), 0); // painted by QStyledItemDelegate, icon and all
    }
};

QTEST_MAIN(TestCachedTextDelegate)
#include "tst_cachedtextdelegate.moc"
