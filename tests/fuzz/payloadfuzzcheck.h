#pragma once

#include <QByteArray>
#include <QJsonDocument>
#include <QJsonParseError>

#include <cstdio>
#include <cstdlib>

// What every payload fuzz target checks of display JSON: a strict parser reads it.
[[noreturn]] inline void payloadFuzzFail(const char *target, const char *what)
{
    std::fprintf(stderr, "%s: %s\n", target, what);
    std::abort();
}

inline void checkDisplayJson(const char *target, const QByteArray &json)
{
    QJsonParseError error;
    QJsonDocument::fromJson('[' + json + ']', &error);
    if (error.error != QJsonParseError::NoError)
        payloadFuzzFail(target, "the display JSON does not parse");
}
