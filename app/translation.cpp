#include "translation.h"

#include <QCoreApplication>
#include <QDir>
#include <QLibraryInfo>
#include <QLocale>
#include <QPointer>
#include <QTranslator>

#include <cstring>

using namespace Qt::StringLiterals;

namespace Translation {
namespace {
QList<QPointer<QTranslator>> &installed()
{
    static QList<QPointer<QTranslator>> translators;
    return translators;
}

// "de-CH" and "de_CH" both name German; catalogues are per language, not per country.
QString languageOf(const QString &name)
{
    return QLocale(QString(name).replace(u'-', u'_')).name().section(u'_', 0, 0);
}

bool load(const QString &file, const QString &dir)
{
    auto *translator = new QTranslator(QCoreApplication::instance());
    if (!translator->load(file, dir) || !QCoreApplication::installTranslator(translator)) {
        delete translator;
        return false;
    }
    installed().append(translator);
    return true;
}
} // namespace

bool takeLanguageOption(int &argc, char **argv, QString *language)
{
    int out = 1;
    bool ok = true;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--lang") == 0) {
            if (i + 1 >= argc) {
                ok = false;
                continue;
            }
            *language = QString::fromLocal8Bit(argv[++i]);
        } else if (std::strncmp(argv[i], "--lang=", 7) == 0) {
            *language = QString::fromLocal8Bit(argv[i] + 7);
        } else {
            argv[out++] = argv[i];
        }
    }
    argc = out;
    argv[argc] = nullptr;
    return ok;
}

QStringList availableLanguages()
{
    QStringList languages;
    const QStringList files = QDir(QString::fromUtf16(resourceDir)).entryList({u"berth_*.qm"_s}, QDir::Files);
    for (const QString &file : files)
        languages << file.mid(6).chopped(3);
    return languages;
}

QString pickLanguage(const QStringList &preferred, const QStringList &available)
{
    for (const QString &name : preferred) {
        const QString language = languageOf(name);
        // English is the source language: an English speaker who also reads German should still get English.
        if (language == u"en" || language == u"C")
            return {};
        if (available.contains(language))
            return language;
    }
    return {};
}

QString install(const QString &requested)
{
    const QStringList preferred =
        requested.isEmpty() ? QLocale::system().uiLanguages() : QStringList{requested};
    const QString language = pickLanguage(preferred, availableLanguages());
    if (language.isEmpty())
        return {};
    if (!load(u"berth_"_s + language, QString::fromUtf16(resourceDir)))
        return {};
    // Qt's own strings (standard buttons, QCommandLineParser...) when qt6-translations-l10n is installed.
    load(u"qtbase_"_s + language, QLibraryInfo::path(QLibraryInfo::TranslationsPath));
    return language;
}

void uninstall()
{
    for (const QPointer<QTranslator> &translator : std::as_const(installed())) {
        if (translator) {
            QCoreApplication::removeTranslator(translator);
            delete translator;
        }
    }
    installed().clear();
}
} // namespace Translation
