#pragma once

#include <QString>
#include <QStringList>

class QLocale;

// Chooses the user-interface language and installs the translators: Berth's own catalogue (embedded as
// :/i18n/berth_<lang>.qm by qt_add_translations) and, when the system has them, Qt's qtbase messages.
namespace Translation {
// Where qt_add_translations puts the compiled catalogues (RESOURCE_PREFIX in app/CMakeLists.txt).
inline constexpr char16_t resourceDir[] = u":/i18n";

// Removes "--lang CODE" or "--lang=CODE" from argv (in place, argc adjusted) so the subcommands' parsers
// never see it. Returns false when --lang has no value.
bool takeLanguageOption(int &argc, char **argv, QString *language);

// Languages with an embedded catalogue, e.g. {"de"}.
QStringList availableLanguages();

// The first of the preferred languages (BCP 47 names such as "de-CH", "en-US") that Berth has a catalogue
// for; empty when English, the source language, comes first or nothing matches.
QString pickLanguage(const QStringList &preferred, const QStringList &available);

// Installs the translators for `requested` (a --lang value; empty: the system locale's UI languages) and
// returns the language chosen, empty for English. Translators are owned by the application object.
QString install(const QString &requested);

// Removes the translators install() added (tests switch languages within one process).
void uninstall();
} // namespace Translation
