// The request dialog on its own, offscreen, for what it offers before any dry run: records of a topic that
// the Accounting view hands over (not dead letters) go back into their own topic, as their consumer's.
#include "views/replayrequestdialog.h"

#include <QComboBox>
#include <QLabel>
#include <QRadioButton>
#include <QTest>

using namespace Qt::StringLiterals;

class TestReplayRequestDialog final : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void accountedRecordsReplayIntoTheirOwnTopic()
    {
        const QList<DlqSelection> records{{u"notifications"_s, 0, 130}, {u"notifications"_s, 1, 6}};
        ReplayRequestDialog dialog(RemediationSetup{}, records, u"email-sender"_s);
        dialog.setTopics({u"notifications"_s, u"orders"_s});
        QVERIFY(dialog.chosenTopicButton()->isChecked());
        QVERIFY(!dialog.originalTopicButton()->isEnabled()); // no dead-letter header names one
        QVERIFY(dialog.destinationBox()->isEnabled());
        QCOMPARE(dialog.destinationBox()->currentText(), u"notifications"_s);
        const QList<QLabel *> labels = dialog.findChildren<QLabel *>();
        const bool described = std::any_of(labels.cbegin(), labels.cend(), [](const QLabel *l) {
            return l->text().contains(u"2 record(s) of notifications for consumer email-sender"_s);
        });
        QVERIFY(described);
        QVERIFY(std::none_of(labels.cbegin(), labels.cend(),
                             [](const QLabel *l) { return l->text().contains(u"dead letter"_s); }));

        // Dead letters keep their original topic as the default.
        ReplayRequestDialog deadLetters(RemediationSetup{}, {{u"orders-dlt"_s, 3, 9}});
        QVERIFY(deadLetters.originalTopicButton()->isChecked());
        QVERIFY(deadLetters.originalTopicButton()->isEnabled());
    }
};

QTEST_MAIN(TestReplayRequestDialog)
#include "tst_replayrequestdialog.moc"
