#include "profilesecrets.h"

#include <libpq-fe.h>

#include <QList>
#include <QPair>
#include <QRegularExpression>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace {
using Options = QList<QPair<QString, QString>>;

// PQconninfoParse understands every form libpq accepts (keyword/value, URI, service=), so the password is
// found wherever the operator put it. Only keywords that were actually given are returned.
bool parse(const QString &conninfo, Options *options)
{
    char *error = nullptr;
    PQconninfoOption *parsed = PQconninfoParse(conninfo.toUtf8().constData(), &error);
    if (!parsed) {
        PQfreemem(error);
        return false;
    }
    for (PQconninfoOption *o = parsed; o->keyword; ++o) {
        if (o->val)
            options->append({QString::fromUtf8(o->keyword), QString::fromUtf8(o->val)});
    }
    PQconninfoFree(parsed);
    return true;
}

// keyword='value' with backslashes and quotes escaped, as libpq's keyword/value syntax requires.
QString render(const Options &options)
{
    QStringList parts;
    for (const auto &[keyword, value] : options) {
        QString escaped = value;
        escaped.replace(u"\\"_s, u"\\\\"_s).replace(u"'"_s, u"\\'"_s);
        parts.append(keyword + u"='"_s + escaped + u'\'');
    }
    return parts.join(u' ');
}

QString kafkaId(const QString &key)
{
    return u"kafka/"_s + key;
}
} // namespace

namespace ProfileSecrets {
bool isSecretKafkaProperty(QStringView key)
{
    // Paths (ssl.key.location, sasl.kerberos.keytab) are not secrets; the values below are.
    return key.endsWith(u".password") || key.endsWith(u".secret") || key == u"ssl.key.pem"
        || key == u"ssl_key" || key == u"sasl.oauthbearer.config" || key == u"sasl.oauthbearer.client.secret";
}

QString namedDatabasePasswordId(const QString &name)
{
    return u"db/"_s + name + u"/password"_s;
}

QHash<QString, QString> extract(ConnectionProfile *profile)
{
    QHash<QString, QString> secrets;
    for (auto &[key, value] : profile->cluster) {
        if (isSecretKafkaProperty(key) && !value.isEmpty()) {
            secrets.insert(kafkaId(key), value);
            value.clear();
        }
    }
    QString password;
    profile->databaseConninfo = stripPassword(profile->databaseConninfo, &password);
    if (!password.isEmpty())
        secrets.insert(QString::fromLatin1(DatabasePasswordId), password);
    if (!profile->schemaRegistry.password.isEmpty())
        secrets.insert(QString::fromLatin1(RegistryPasswordId), profile->schemaRegistry.password);
    profile->schemaRegistry.password.clear();
    for (auto it = profile->databases.begin(); it != profile->databases.end(); ++it) {
        *it = stripPassword(*it, &password);
        if (!password.isEmpty())
            secrets.insert(namedDatabasePasswordId(it.key()), password);
    }
    return secrets;
}

bool hasPlaceFor(const ConnectionProfile &profile, const QString &id)
{
    if (id == QLatin1StringView(DatabasePasswordId))
        return !profile.databaseConninfo.trimmed().isEmpty();
    if (id == QLatin1StringView(RegistryPasswordId))
        return profile.schemaRegistry.isSet();
    for (auto it = profile.databases.cbegin(); it != profile.databases.cend(); ++it) {
        if (id == namedDatabasePasswordId(it.key()))
            return true;
    }
    return std::any_of(profile.cluster.cbegin(), profile.cluster.cend(),
                       [&](const auto &property) { return kafkaId(property.first) == id; });
}

void apply(ConnectionProfile *profile, const QHash<QString, QString> &secrets)
{
    for (auto &[key, value] : profile->cluster) {
        const auto it = secrets.constFind(kafkaId(key));
        if (it != secrets.cend() && isSecretKafkaProperty(key))
            value = *it;
    }
    const auto password = secrets.constFind(QString::fromLatin1(DatabasePasswordId));
    if (password != secrets.cend() && !password->isEmpty())
        profile->databaseConninfo = withPassword(profile->databaseConninfo, *password);
    if (const auto registry = secrets.constFind(QString::fromLatin1(RegistryPasswordId)); registry != secrets.cend())
        profile->schemaRegistry.password = *registry;
    for (auto it = profile->databases.begin(); it != profile->databases.end(); ++it) {
        const auto named = secrets.constFind(namedDatabasePasswordId(it.key()));
        if (named != secrets.cend() && !named->isEmpty())
            *it = withPassword(*it, *named);
    }
}

QString stripPassword(const QString &conninfo, QString *password)
{
    password->clear();
    Options options;
    if (conninfo.trimmed().isEmpty() || !parse(conninfo, &options))
        return conninfo;
    bool found = false;
    for (qsizetype i = options.size() - 1; i >= 0; --i) {
        if (options[i].first == u"password") {
            *password = options[i].second;
            options.removeAt(i);
            found = true;
        }
    }
    return found ? render(options) : conninfo;
}

QString withPassword(const QString &conninfo, const QString &password)
{
    Options options;
    if (!parse(conninfo, &options))
        return conninfo;
    options.removeIf([](const auto &o) { return o.first == u"password"; });
    options.append({u"password"_s, password});
    return render(options);
}

QString hidePasswordInParseError(const QString &conninfo, const QString &error)
{
    Options options;
    if (parse(conninfo, &options))
        return error;
    // Unparsed, a password's end is unknown: everything after a password keyword may be part of it, and so
    // may a URI's user info after its colon (up to the last '@': an unencoded '@' may be in the password).
    QList<QPair<qsizetype, qsizetype>> regions; // [from, to) in conninfo
    static const QRegularExpression keyword(u"password\\s*="_s, QRegularExpression::CaseInsensitiveOption);
    if (const QRegularExpressionMatch m = keyword.match(conninfo); m.hasMatch())
        regions.append({m.capturedEnd(), conninfo.size()});
    static const QRegularExpression userInfo(u"^\\s*postgres(?:ql)?://[^:@/]*:(.*)@"_s,
                                             QRegularExpression::CaseInsensitiveOption);
    if (const QRegularExpressionMatch m = userInfo.match(conninfo); m.hasMatch())
        regions.append({m.capturedStart(1), m.capturedEnd(1)});
    if (regions.isEmpty())
        return error;
    // A quoted piece is hidden when it reaches into a region wherever it occurs in the conninfo, or when it
    // does not occur there verbatim (libpq may have unescaped it). Bare syntax ("=") tells nothing.
    const auto mayBeSecret = [&](const QString &piece) {
        if (std::none_of(piece.cbegin(), piece.cend(), [](QChar c) { return c.isLetterOrNumber(); }))
            return false;
        qsizetype at = conninfo.indexOf(piece);
        if (at < 0)
            return true;
        for (; at >= 0; at = conninfo.indexOf(piece, at + 1)) {
            for (const auto &[from, to] : std::as_const(regions)) {
                if (at < to && at + piece.size() > from)
                    return true;
            }
        }
        return false;
    };
    static const QRegularExpression quoted(u"\"([^\"]*)\""_s);
    QString out;
    qsizetype from = 0;
    for (QRegularExpressionMatchIterator it = quoted.globalMatch(error); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        out += QStringView(error).sliced(from, m.capturedStart() - from);
        out += mayBeSecret(m.captured(1)) ? u"\"…\""_s : m.captured(0);
        from = m.capturedEnd();
    }
    return out + QStringView(error).sliced(from);
}

QString sslModeOf(const QString &conninfo)
{
    Options options;
    if (parse(conninfo, &options)) {
        for (const auto &[keyword, value] : options) {
            if (keyword == u"sslmode")
                return value;
        }
    }
    const QByteArray fromEnvironment = qgetenv("PGSSLMODE");
    return fromEnvironment.isEmpty() ? u"prefer"_s : QString::fromLocal8Bit(fromEnvironment);
}
} // namespace ProfileSecrets
