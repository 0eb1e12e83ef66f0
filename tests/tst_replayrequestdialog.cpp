// The request dialog on its own, offscreen, for what it offers before any dry run: records of a topic that
// the Accounting view hands over (not dead letters) go back into their own topic, as their consumer's.
#include "views/replayrequestdialog.h"

#include "services/policy/policyloader.h"
#include "services/remediation/remediationtypes.h"

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

    // A parked row's message id is the idempotency key of a record its consumer reads: where the policy
    // masks that key, the dialog's heading names the row "(masked)"; another consumer's row by its id.
    void parkedRowOfAMaskedConsumerIsNamedMasked()
    {
        const PolicyLoadResult loaded = loadPolicy(
            "deliverySemantics:\n  consumers:\n"
            "    order-projection:\n      topics: [orders]\n      idempotencyKey: {header: idempotency-key}\n"
            "masking:\n  - topic: orders\n    headers: [idempotency-key]\n",
            u"masked.yaml"_s);
        QVERIFY2(loaded.ok(), qPrintable(loaded.messages().join(u"; "_s)));
        RemediationSetup setup;
        setup.keyMask = KeyMask(loaded.policy);
        const auto heading = [](const ReplayRequestDialog &dialog) {
            QStringList texts;
            for (const QLabel *label : dialog.findChildren<QLabel *>())
                texts << label->text();
            return texts.join(u'\n');
        };
        const ReplayRequestDialog masked(
            setup, {inboxRefFor(u"order-projection"_s, u"card-4111-1111"_s, u"order-projection"_s)});
        QVERIFY2(!heading(masked).contains(u"4111"_s), qPrintable(heading(masked)));
        QVERIFY2(heading(masked).contains(u"One parked inbox row: (masked) in order-projection"_s),
                 qPrintable(heading(masked)));
        const ReplayRequestDialog plain(setup, {inboxRefFor(u"email-sender"_s, u"ntf-0001"_s, u"email-sender"_s)});
        QVERIFY2(heading(plain).contains(u"One parked inbox row: ntf-0001 in email-sender"_s),
                 qPrintable(heading(plain)));
    }
};

QTEST_MAIN(TestReplayRequestDialog)
#include "tst_replayrequestdialog.moc"
