// Translation completeness: translations/berth_de.ts must hold every user-visible string of the sources, each
// one translated, and the compiled catalogue must be embedded in the binary and chosen by --lang / the
// locale.
//
// After adding or changing strings (the test lists what is missing), refresh and translate:
//     cmake --build build --target update_translations   # lupdate over app/ views/ models/ services/
//     linguist translations/berth_de.ts                  # or edit the XML: translate every type="unfinished"
// and rebuild; lrelease compiles the .qm and it is embedded under :/i18n automatically.
//
// Scope: every tr()/QCoreApplication::translate() string in the directories app/CMakeLists.txt translates
// (BERTH_TRANSLATED_DIRS). Deliberately English: log messages, error texts that come from librdkafka, libpq,
// the YAML parser or the OS and reach the UI as %1, and command-line output (berth lag/dlq, --help).
// Code outside a QObject translates through a helper class with Q_DECLARE_TR_FUNCTIONS(Context) (see
// models/displayformat.cpp), so lupdate files each string under the context it is looked up in at run time.

#include "app/translation.h"
#include "services/policy/consumerchecklist.h"

#include <QDirIterator>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

#include <memory>

using namespace Qt::StringLiterals;

namespace {
struct Message {
    QString context;
    QString source;
    QString comment;
    bool numerus = false;
    bool unfinished = false;
    QStringList translations; // one entry, or one per plural form
    QString key() const { return context + u'\x1f' + source + u'\x1f' + comment; }
    QString label() const
    {
        return context + u": \""_s + source + u'"'
               + (comment.isEmpty() ? QString() : u" ("_s + comment + u')');
    }
};

Message readMessage(QXmlStreamReader &xml, const QString &context)
{
    Message m;
    m.context = context;
    m.numerus = xml.attributes().value(u"numerus"_s) == u"yes";
    while (xml.readNextStartElement()) {
        if (xml.name() == u"source") {
            m.source = xml.readElementText();
        } else if (xml.name() == u"comment") {
            m.comment = xml.readElementText();
        } else if (xml.name() == u"translation") {
            const auto type = xml.attributes().value(u"type"_s);
            m.unfinished = type == u"unfinished" || type == u"vanished" || type == u"obsolete";
            if (!m.numerus) {
                m.translations << xml.readElementText();
                continue;
            }
            while (xml.readNextStartElement()) {
                if (xml.name() == u"numerusform")
                    m.translations << xml.readElementText();
                else
                    xml.skipCurrentElement();
            }
        } else {
            xml.skipCurrentElement();
        }
    }
    return m;
}

QList<Message> readTs(const QString &path, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = path + u": "_s + file.errorString();
        return {};
    }
    QList<Message> messages;
    QXmlStreamReader xml(&file);
    if (xml.readNextStartElement() && xml.name() == u"TS") {
        while (xml.readNextStartElement()) {
            if (xml.name() != u"context") {
                xml.skipCurrentElement();
                continue;
            }
            QString context;
            while (xml.readNextStartElement()) {
                if (xml.name() == u"name")
                    context = xml.readElementText();
                else if (xml.name() == u"message")
                    messages << readMessage(xml, context);
                else
                    xml.skipCurrentElement();
            }
        }
    }
    if (xml.hasError())
        *error = u"%1:%2: %3"_s.arg(path).arg(xml.lineNumber()).arg(xml.errorString());
    return messages;
}

QString committedTs()
{
    return QDir(qEnvironmentVariable("BERTH_SOURCE_DIR")).filePath(u"translations/berth_de.ts"_s);
}

QStringList translatedDirs()
{
    const QDir sourceDir(qEnvironmentVariable("BERTH_SOURCE_DIR"));
    QStringList dirs;
    const QStringList names = QString::fromUtf8(BERTH_TRANSLATED_DIRS).split(u',', Qt::SkipEmptyParts);
    for (const QString &d : names)
        dirs << sourceDir.filePath(d);
    return dirs;
}

// True when some source looks strings up under `context` at run time: QCoreApplication::translate("context",
// ...) or a helper class with Q_DECLARE_TR_FUNCTIONS(context).
bool contextUsedAtRunTime(const QString &context)
{
    const QString call = u"translate(\"%1\""_s.arg(context);
    const QString helper = u"Q_DECLARE_TR_FUNCTIONS(%1)"_s.arg(context);
    for (const QString &dir : translatedDirs()) {
        QDirIterator it(dir, {u"*.cpp"_s, u"*.h"_s}, QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            QFile file(it.next());
            if (!file.open(QIODevice::ReadOnly))
                continue;
            const QString text = QString::fromUtf8(file.readAll());
            if (text.contains(call) || text.contains(helper))
                return true;
        }
    }
    return false;
}

// Runs lupdate over the translated directories into a fresh .ts. `contextProblems` gets the tr() calls
// lupdate drops (no context) or files under a class name the code never looks strings up with (a free tr()
// helper called inside a class without Q_OBJECT: lupdate uses the class, the helper another context).
QList<Message> scanSources(QStringList *contextProblems, QString *error)
{
    static QTemporaryDir dir;
    const QString ts = dir.filePath(u"scan_de.ts"_s);
    QFile::remove(ts);
    QStringList args{u"-no-obsolete"_s, u"-locations"_s, u"none"_s, u"-extensions"_s, u"cpp,h"_s};
    args << translatedDirs() << u"-ts"_s << ts;
    QProcess lupdate;
    lupdate.start(QString::fromUtf8(BERTH_LUPDATE), args);
    if (!lupdate.waitForFinished(120000) || lupdate.exitCode() != 0) {
        *error = u"lupdate failed: "_s + lupdate.errorString()
                 + QString::fromLocal8Bit(lupdate.readAllStandardError());
        return {};
    }
    static const QRegularExpression noQObject(u"Class '([^']+)' lacks Q_OBJECT macro"_s);
    const QStringList lines =
        QString::fromLocal8Bit(lupdate.readAllStandardError() + lupdate.readAllStandardOutput())
            .split(u'\n', Qt::SkipEmptyParts);
    for (const QString &line : lines) {
        if (line.contains(u"cannot be called without context")) {
            *contextProblems << line.trimmed();
        } else if (const auto m = noQObject.match(line);
                   m.hasMatch() && !contextUsedAtRunTime(m.captured(1))) {
            *contextProblems << line.trimmed() + u" — its strings are filed under \""_s + m.captured(1)
                                    + u"\", a context no code translates with"_s;
        }
    }
    return readTs(ts, error);
}

// Prints every item (a failure message is cut short) and returns the headline with the count; empty when
// there is nothing to report.
QString report(const QString &headline, const QStringList &items)
{
    if (items.isEmpty())
        return {};
    qInfo().noquote() << headline + u':';
    for (const QString &item : items)
        qInfo().noquote() << u"    "_s + item;
    return headline + u" (%1, listed above). "_s.arg(items.size());
}

// %1, %L2, %n: the translation must use the same placeholders as the source (order may differ).
QStringList placeholders(const QString &text)
{
    static const QRegularExpression re(u"%L?(\\d+|n)"_s);
    QStringList found;
    for (auto it = re.globalMatch(text); it.hasNext();)
        found << it.next().captured(1);
    found.sort();
    found.removeDuplicates();
    return found;
}

bool hasAccelerator(const QString &text)
{
    return QString(text).remove(u"&&"_s).contains(u'&');
}
} // namespace

class TestTranslations final : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // Every string lupdate finds in the sources is in the committed .ts, and nothing else is.
    void catalogueMatchesSources()
    {
        QString error;
        QStringList problems;
        const QList<Message> scanned = scanSources(&problems, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY2(scanned.size() > 100, "lupdate found almost nothing: wrong source directories?");
        const QList<Message> committed = readTs(committedTs(), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));

        QSet<QString> committedKeys;
        for (const Message &m : committed)
            committedKeys.insert(m.key());
        QSet<QString> scannedKeys;
        QStringList missing;
        for (const Message &m : scanned) {
            scannedKeys.insert(m.key());
            if (!committedKeys.contains(m.key()))
                missing << m.label();
        }
        QStringList vanished;
        for (const Message &m : committed) {
            if (!scannedKeys.contains(m.key()))
                vanished << m.label();
        }
        if (!missing.isEmpty() || !vanished.isEmpty()) {
            QString message =
                report(u"berth_de.ts is stale: strings in the sources are missing from it"_s, missing);
            message += report(u"berth_de.ts is stale: entries no longer in the sources"_s, vanished);
            QFAIL(qPrintable(message
                             + u"Refresh with `cmake --build build --target update_translations`, then "
                               "translate the new entries."_s));
        }
    }

    // A tr() lupdate cannot place in a context is never extracted, or is filed under a context the code does
    // not look up at run time.
    void everyStringHasItsContext()
    {
        QString error;
        QStringList problems;
        scanSources(&problems, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY2(problems.isEmpty(),
                 qPrintable(
                     report(u"tr() calls lupdate cannot file under the context used at run time"_s, problems)
                     + u"Outside a QObject, call tr() through a helper class with "
                       "Q_DECLARE_TR_FUNCTIONS(Context), as models/displayformat.cpp does."_s));
    }

    void everyMessageIsTranslated()
    {
        QString error;
        const QList<Message> committed = readTs(committedTs(), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY(!committed.isEmpty());
        QStringList untranslated;
        QStringList broken;
        for (const Message &m : committed) {
            const bool empty = std::any_of(m.translations.cbegin(), m.translations.cend(),
                                           [](const QString &t) { return t.trimmed().isEmpty(); });
            // German has two plural forms (one, other).
            if (m.unfinished || empty || m.translations.isEmpty()
                || (m.numerus && m.translations.size() != 2)) {
                untranslated << m.label();
                continue;
            }
            for (const QString &t : m.translations) {
                // Singular forms may spell out the number ("ein Eintrag") instead of %n.
                QStringList want = placeholders(m.source);
                QStringList got = placeholders(t);
                if (m.numerus) {
                    want.removeAll(u"n"_s);
                    got.removeAll(u"n"_s);
                }
                if (want != got)
                    broken << m.label() + u" → placeholders "_s + got.join(u',') + u" instead of "_s
                                  + want.join(u',');
                if (hasAccelerator(m.source) != hasAccelerator(t))
                    broken << m.label() + u" → accelerator (&) lost or added: "_s + t;
            }
            if (m.numerus && !m.translations.constLast().contains(u"%n"))
                broken << m.label() + u" → the plural form must show %n"_s;
        }
        if (!untranslated.isEmpty() || !broken.isEmpty()) {
            QString message = report(u"Messages untranslated in berth_de.ts"_s, untranslated);
            message += report(u"Translations that break their source"_s, broken);
            QFAIL(qPrintable(message));
        }
    }

    // The compiled catalogue is embedded, and loading it gives exactly what berth_de.ts says (the .qm is
    // current).
    void germanCatalogueIsEmbedded()
    {
        QVERIFY2(Translation::availableLanguages().contains(u"de"_s),
                 qPrintable(u":/i18n holds "_s
                            + QDir(QString::fromUtf16(Translation::resourceDir)).entryList().join(u' ')));
        QCOMPARE(Translation::install(u"de"_s), u"de"_s);
        const auto cleanup = qScopeGuard([] { Translation::uninstall(); });

        QCOMPARE(QCoreApplication::translate("MainWindow", "Connections"), u"Verbindungen"_s);
        // Code outside QObject (a Q_DECLARE_TR_FUNCTIONS helper) is translated too.
        QCOMPARE(verdictName(ChecklistItem::Verdict::Missing), u"fehlt"_s);

        QString error;
        const QList<Message> committed = readTs(committedTs(), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QStringList differs;
        for (const Message &m : committed) {
            if (m.unfinished || m.translations.isEmpty())
                continue;
            const QByteArray context = m.context.toUtf8();
            const QByteArray source = m.source.toUtf8();
            const QByteArray comment = m.comment.toUtf8();
            const char *disambiguation = m.comment.isEmpty() ? nullptr : comment.constData();
            if (m.numerus) {
                const QString one =
                    QCoreApplication::translate(context.constData(), source.constData(), disambiguation, 1);
                const QString many =
                    QCoreApplication::translate(context.constData(), source.constData(), disambiguation, 5);
                if (one != QString(m.translations.at(0)).replace(u"%n"_s, u"1"_s)
                    || many != QString(m.translations.at(1)).replace(u"%n"_s, u"5"_s))
                    differs << m.label();
            } else if (QCoreApplication::translate(context.constData(), source.constData(), disambiguation)
                       != m.translations.constFirst()) {
                differs << m.label();
            }
        }
        QVERIFY2(differs.isEmpty(),
                 qPrintable(report(u"The embedded catalogue does not match berth_de.ts (rebuild berth_app)"_s,
                                   differs)));
    }

    void englishLeavesSourceText()
    {
        QCOMPARE(Translation::install(u"en"_s), QString());
        QCOMPARE(QCoreApplication::translate("MainWindow", "Connections"), u"Connections"_s);
        QCOMPARE(verdictName(ChecklistItem::Verdict::Missing), u"missing"_s);
        QCOMPARE(Translation::install(u"en_GB"_s), QString());
        QCOMPARE(Translation::install(u"xx"_s), QString());
        QCOMPARE(QCoreApplication::translate("MainWindow", "Connections"), u"Connections"_s);
    }

    void pickLanguage_data()
    {
        QTest::addColumn<QStringList>("preferred");
        QTest::addColumn<QString>("chosen");
        QTest::newRow("German system") << QStringList{u"de-DE"_s} << u"de"_s;
        QTest::newRow("Swiss German") << QStringList{u"de-CH"_s, u"en"_s} << u"de"_s;
        QTest::newRow("underscore form") << QStringList{u"de_AT"_s} << u"de"_s;
        QTest::newRow("English first, German second") << QStringList{u"en-US"_s, u"de-DE"_s} << QString();
        QTest::newRow("French, then German") << QStringList{u"fr-FR"_s, u"de-DE"_s} << u"de"_s;
        QTest::newRow("only French") << QStringList{u"fr-FR"_s} << QString();
        QTest::newRow("C locale") << QStringList{u"C"_s} << QString();
        QTest::newRow("nothing") << QStringList{} << QString();
    }
    void pickLanguage()
    {
        QFETCH(QStringList, preferred);
        QFETCH(QString, chosen);
        QCOMPARE(Translation::pickLanguage(preferred, {u"de"_s}), chosen);
    }

    void languageOption_data()
    {
        QTest::addColumn<QStringList>("argv");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<QString>("language");
        QTest::addColumn<QStringList>("rest");
        QTest::newRow("none") << QStringList{u"berth"_s, u"demo"_s} << true << QString()
                              << QStringList{u"berth"_s, u"demo"_s};
        QTest::newRow("separate value") << QStringList{u"berth"_s, u"--lang"_s, u"de"_s, u"demo"_s} << true
                                        << u"de"_s << QStringList{u"berth"_s, u"demo"_s};
        QTest::newRow("after the subcommand")
            << QStringList{u"berth"_s, u"demo"_s, u"--speed"_s, u"2"_s, u"--lang=en"_s} << true << u"en"_s
            << QStringList{u"berth"_s, u"demo"_s, u"--speed"_s, u"2"_s};
        QTest::newRow("missing value")
            << QStringList{u"berth"_s, u"--lang"_s} << false << QString() << QStringList{u"berth"_s};
    }
    void languageOption()
    {
        QFETCH(QStringList, argv);
        QFETCH(bool, ok);
        QFETCH(QString, language);
        QFETCH(QStringList, rest);
        std::vector<QByteArray> storage;
        for (const QString &a : argv)
            storage.push_back(a.toLocal8Bit());
        std::vector<char *> pointers;
        for (QByteArray &a : storage)
            pointers.push_back(a.data());
        pointers.push_back(nullptr);
        int argc = int(argv.size());
        QString chosen;
        QCOMPARE(Translation::takeLanguageOption(argc, pointers.data(), &chosen), ok);
        QCOMPARE(chosen, language);
        QStringList left;
        for (int i = 0; i < argc; ++i)
            left << QString::fromLocal8Bit(pointers[i]);
        QCOMPARE(left, rest);
        QCOMPARE(pointers[argc], nullptr);
    }
};

QTEST_GUILESS_MAIN(TestTranslations)
#include "tst_translations.moc"
