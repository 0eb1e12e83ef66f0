#include "pgsession.h"

#include "services/support/logging.h"
#include "services/support/profilesecrets.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QUuid>

#include <libpq-fe.h>

#include <algorithm>
#include <limits>
#include <utility>
#include <vector>

using namespace Qt::StringLiterals;

namespace {
// Built-in type OIDs (stable since forever; the server's pg_type_d.h is not a client dependency).
enum : Oid {
    BoolOid = 16,
    ByteaOid = 17,
    Int8Oid = 20,
    Int2Oid = 21,
    Int4Oid = 23,
    OidOid = 26,
    Float4Oid = 700,
    Float8Oid = 701,
    DateOid = 1082,
    TimestampOid = 1114,
    TimestampTzOid = 1184,
    NumericOid = 1700,
};

// Each element quoted, with backslash and double quote escaped, written into one buffer with no temporary per
// ASCII element: executors send arrays of thousands of elements per statement.
QByteArray pgArrayLiteral(const QStringList &items)
{
    qsizetype size = 2;
    for (const QString &item : items)
        size += item.size() + 3; // quotes and comma; UTF-8 and escapes may need more, which append grows to
    QByteArray out;
    out.reserve(size);
    const auto append = [&out](char ch) {
        if (ch == '\\' || ch == '"')
            out += '\\';
        out += ch;
    };
    out += '{';
    for (qsizetype i = 0; i < items.size(); ++i) {
        if (i)
            out += ',';
        out += '"';
        const QString &item = items.at(i);
        if (std::all_of(item.cbegin(), item.cend(), [](QChar c) { return c.unicode() < 0x80; })) {
            for (const QChar c : item)
                append(char(c.unicode()));
        } else {
            for (const char ch : item.toUtf8())
                append(ch);
        }
        out += '"';
    }
    out += '}';
    return out;
}

// Text-format encoding of one parameter; *isNull tells libpq to send SQL NULL instead.
QByteArray encodeParam(const QVariant &value, bool *isNull)
{
    *isNull = !value.isValid() || value.isNull();
    if (*isNull)
        return {};
    switch (value.metaType().id()) {
    case QMetaType::Bool:
        return value.toBool() ? "t" : "f";
    case QMetaType::Double:
    case QMetaType::Float:
        return QByteArray::number(value.toDouble(), 'g', 17);
    case QMetaType::QByteArray:
        return "\\x" + value.toByteArray().toHex();
    case QMetaType::QDateTime:
        // UTC with an explicit zone: unambiguous for timestamptz, and the UTC wall time for timestamp.
        return value.toDateTime().toUTC().toString(Qt::ISODateWithMs).toUtf8();
    case QMetaType::QDate:
        return value.toDate().toString(Qt::ISODate).toUtf8();
    case QMetaType::QTime:
        return value.toTime().toString(Qt::ISODateWithMs).toUtf8();
    case QMetaType::QUuid:
        return value.toUuid().toByteArray(QUuid::WithoutBraces);
    case QMetaType::QStringList:
        return pgArrayLiteral(value.toStringList());
    case QMetaType::QJsonDocument:
        return value.toJsonDocument().toJson(QJsonDocument::Compact);
    case QMetaType::QJsonObject:
        return QJsonDocument(value.toJsonObject()).toJson(QJsonDocument::Compact);
    case QMetaType::QJsonArray:
        return QJsonDocument(value.toJsonArray()).toJson(QJsonDocument::Compact);
    default:
        return value.toString().toUtf8();
    }
}

int parseDigits(QStringView text, qsizetype pos, int count, bool *ok)
{
    if (pos + count > text.size()) {
        *ok = false;
        return 0;
    }
    int value = 0;
    for (int i = 0; i < count; ++i) {
        const QChar c = text.at(pos + i);
        if (!c.isDigit()) {
            *ok = false;
            return 0;
        }
        value = value * 10 + c.digitValue();
    }
    return value;
}

// DateStyle ISO output: "YYYY-MM-DD HH:MM:SS[.ffffff][+HH[:MM[:SS]]]". Anything else (infinity, BC dates)
// is returned as text rather than guessed at.
QVariant parseTimestamp(const QString &text)
{
    bool ok = text.size() >= 19 && text.at(4) == u'-' && text.at(10) == u' ';
    const int year = parseDigits(text, 0, 4, &ok);
    const int month = parseDigits(text, 5, 2, &ok);
    const int day = parseDigits(text, 8, 2, &ok);
    const int hour = parseDigits(text, 11, 2, &ok);
    const int minute = parseDigits(text, 14, 2, &ok);
    const int second = parseDigits(text, 17, 2, &ok);
    if (!ok)
        return text;
    qsizetype pos = 19;
    int msec = 0;
    if (pos < text.size() && text.at(pos) == u'.') {
        ++pos;
        int digits = 0;
        while (pos < text.size() && text.at(pos).isDigit()) {
            if (digits < 3) // Qt keeps milliseconds; the rest is truncated
                msec = msec * 10 + text.at(pos).digitValue();
            ++digits;
            ++pos;
        }
        for (; digits < 3; ++digits)
            msec *= 10;
    }
    int offset = 0;
    if (pos < text.size() && (text.at(pos) == u'+' || text.at(pos) == u'-')) {
        const int sign = text.at(pos) == u'-' ? -1 : 1;
        offset = parseDigits(text, pos + 1, 2, &ok) * 3600;
        pos += 3;
        for (int factor : {60, 1}) {
            if (pos < text.size() && text.at(pos) == u':') {
                offset += parseDigits(text, pos + 1, 2, &ok) * factor;
                pos += 3;
            }
        }
        offset *= sign;
    }
    const QDate date(year, month, day);
    const QTime time(hour, minute, second, msec);
    if (!ok || pos != text.size() || !date.isValid() || !time.isValid())
        return text;
    return QDateTime(date, time, Qt::UTC).addSecs(-offset);
}

double parseDouble(const QByteArray &text)
{
    if (text == "NaN")
        return std::numeric_limits<double>::quiet_NaN();
    if (text == "Infinity")
        return std::numeric_limits<double>::infinity();
    if (text == "-Infinity")
        return -std::numeric_limits<double>::infinity();
    return text.toDouble();
}

QVariant decodeValue(const PGresult *res, int row, int column)
{
    if (PQgetisnull(res, row, column))
        return {};
    const char *raw = PQgetvalue(res, row, column);
    const QByteArray text = QByteArray::fromRawData(raw, PQgetlength(res, row, column));
    switch (PQftype(res, column)) {
    case BoolOid:
        return text == "t";
    case Int2Oid:
    case Int4Oid:
    case Int8Oid:
    case OidOid:
        return text.toLongLong();
    case Float4Oid:
    case Float8Oid:
    case NumericOid:
        return parseDouble(text);
    case ByteaOid: {
        size_t length = 0;
        unsigned char *bytes = PQunescapeBytea(reinterpret_cast<const unsigned char *>(raw), &length);
        if (!bytes)
            return QString::fromUtf8(text);
        QByteArray out(reinterpret_cast<const char *>(bytes), qsizetype(length));
        PQfreemem(bytes);
        return out;
    }
    case TimestampOid: // read as UTC wall time, the convention Berth writes with
    case TimestampTzOid:
        return parseTimestamp(QString::fromLatin1(text));
    case DateOid: {
        const QDate date = QDate::fromString(QString::fromLatin1(text), Qt::ISODate);
        return date.isValid() ? QVariant(date) : QVariant(QString::fromLatin1(text));
    }
    default:
        return QString::fromUtf8(text);
    }
}

// libpq prints notices to stderr by default; route them to the log. A FATAL one is the server's reason
// for closing the connection, kept for the error the owner will report.
void onNotice(void *lastFatal, const char *message)
{
    const QString text = PgSession::readableError(message);
    if (text.startsWith(u"FATAL:"_s))
        *static_cast<QString *>(lastFatal) = text.mid(6).trimmed();
    qCDebug(lcInbox).noquote() << "server notice:" << text;
}

} // namespace

int PgResult::columnIndex(QStringView name) const
{
    for (qsizetype i = 0; i < columns.size(); ++i) {
        if (columns.at(i) == name)
            return int(i);
    }
    return -1;
}

QVariant PgResult::value(int row, QStringView column) const
{
    const int c = columnIndex(column);
    if (c < 0 || row < 0 || row >= rows.size())
        return {};
    return rows.at(row).value(c);
}

PgResult PgResult::failure(const QString &error, const QString &sqlState)
{
    PgResult result;
    result.error = error;
    result.sqlState = sqlState;
    return result;
}

PgSession::~PgSession()
{
    close();
}

PgSession::PgSession(PgSession &&other) noexcept
    : m_conn(std::exchange(other.m_conn, nullptr))
    , m_lastFatal(std::exchange(other.m_lastFatal, std::make_unique<QString>()))
{
}

PgSession &PgSession::operator=(PgSession &&other) noexcept
{
    if (this != &other) {
        close();
        m_conn = std::exchange(other.m_conn, nullptr);
        std::swap(m_lastFatal, other.m_lastFatal);
    }
    return *this;
}

QString PgSession::sameParameters(QString *error) const
{
    if (!isOpen()) {
        if (error)
            *error = u"not connected"_s;
        return {};
    }
    PQconninfoOption *options = PQconninfo(m_conn);
    if (!options) {
        if (error)
            *error = u"out of memory reading the connection parameters"_s;
        return {};
    }
    QString conninfo;
    for (PQconninfoOption *o = options; o->keyword; ++o) {
        if (!o->val || !*o->val)
            continue;
        QString value = QString::fromUtf8(o->val);
        value.replace(u'\\', u"\\\\"_s).replace(u'\'', u"\\'"_s);
        conninfo += QString::fromUtf8(o->keyword) + u"='"_s + value + u"' "_s;
    }
    PQconninfoFree(options);
    return conninfo;
}

QString PgSession::serverIdentity() const
{
    if (!m_conn)
        return {};
    return QString::fromUtf8(PQuser(m_conn)) + u'@' + QString::fromUtf8(PQhost(m_conn)) + u':'
           + QString::fromUtf8(PQport(m_conn)) + u'/' + QString::fromUtf8(PQdb(m_conn));
}

bool PgSession::connectLike(const PgSession &other, QString *error)
{
    const QString conninfo = other.sameParameters(error);
    return !conninfo.isEmpty() && connect(conninfo, error);
}

bool PgSession::connect(const QString &conninfo, QString *error)
{
    close();
    const QByteArray info = conninfo.toUtf8();
    // Entries before dbname are defaults the conninfo may override (bounded connect, and TCP keepalives so a
    // vanished host is noticed on an idle connection); entries after it are imposed: results are decoded
    // as UTF-8, so the session must speak it.
    const char *keywords[] = {
        "connect_timeout",           "keepalives_idle", "keepalives_interval", "keepalives_count",
        "fallback_application_name", "dbname",          "client_encoding",     nullptr};
    const char *values[] = {"10", "30", "10", "3", "berth", info.constData(), "UTF8", nullptr};
    m_lastFatal->clear();
    m_conn = PQconnectdbParams(keywords, values, 1);
    if (m_conn)
        PQsetNoticeProcessor(m_conn, onNotice, m_lastFatal.get());
    if (!m_conn || PQstatus(m_conn) != CONNECTION_OK) {
        if (error) // libpq quotes what it cannot parse: never a piece of the password
            *error = m_conn ? ProfileSecrets::hidePasswordInParseError(conninfo, lastError())
                            : u"out of memory while connecting"_s;
        close();
        return false;
    }
    // Timestamps are parsed from ISO output; only pay a round trip when the server defaults otherwise.
    const char *dateStyle = PQparameterStatus(m_conn, "DateStyle");
    if (!dateStyle || qstrncmp(dateStyle, "ISO", 3) != 0) {
        QString setError;
        if (!execScript(u"SET DateStyle = 'ISO, YMD'"_s, &setError)) {
            if (error)
                *error = setError;
            close();
            return false;
        }
    }
    return true;
}

bool PgSession::isOpen() const
{
    return m_conn && PQstatus(m_conn) == CONNECTION_OK;
}

void PgSession::close()
{
    if (m_conn)
        PQfinish(std::exchange(m_conn, nullptr));
}

namespace {
// Text parameters for PQexecParams / PQsendQueryParams; values points into storage.
struct EncodedParams {
    std::vector<QByteArray> storage;
    std::vector<const char *> values;

    explicit EncodedParams(const QVariantList &params)
        : storage(size_t(params.size()))
        , values(size_t(params.size()), nullptr)
    {
        for (qsizetype i = 0; i < params.size(); ++i) {
            bool isNull = false;
            storage[size_t(i)] = encodeParam(params.at(i), &isNull);
            values[size_t(i)] = isNull ? nullptr : storage[size_t(i)].constData();
        }
    }
    int count() const { return int(values.size()); }
};

// One statement's PGresult as plain values; frees it.
PgResult takeResult(PGresult *res, PGconn *conn)
{
    PgResult result;
    const ExecStatusType status = res ? PQresultStatus(res) : PGRES_FATAL_ERROR;
    if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK || status == PGRES_EMPTY_QUERY) {
        result.ok = true;
        result.affected = QByteArray(PQcmdTuples(res)).toLongLong();
        const int columnCount = PQnfields(res);
        const int rowCount = PQntuples(res);
        result.columns.reserve(columnCount);
        for (int c = 0; c < columnCount; ++c)
            result.columns << QString::fromUtf8(PQfname(res, c));
        result.rows.reserve(rowCount);
        for (int r = 0; r < rowCount; ++r) {
            QVariantList row;
            row.reserve(columnCount);
            for (int c = 0; c < columnCount; ++c)
                row << decodeValue(res, r, c);
            result.rows << row;
        }
    } else {
        result.error = PgSession::resultError(res, conn);
        if (res)
            result.sqlState = QString::fromLatin1(PQresultErrorField(res, PG_DIAG_SQLSTATE));
        if (result.error.isEmpty())
            result.error = QString::fromLatin1(PQresStatus(status));
    }
    PQclear(res);
    return result;
}
} // namespace

PgResult PgSession::exec(const QString &sql, const QVariantList &params)
{
    if (!m_conn)
        return PgResult::failure(u"not connected to the database"_s);
    const EncodedParams encoded(params);
    const QByteArray query = sql.toUtf8();
    return takeResult(PQexecParams(m_conn, query.constData(), encoded.count(), nullptr, encoded.values.data(),
                                   nullptr, nullptr, 0),
                      m_conn);
}

bool PgSession::send(const QString &sql, const QVariantList &params, QString *error)
{
    if (!m_conn) {
        if (error)
            *error = u"not connected to the database"_s;
        return false;
    }
    const EncodedParams encoded(params);
    const QByteArray query = sql.toUtf8();
    if (PQsendQueryParams(m_conn, query.constData(), encoded.count(), nullptr, encoded.values.data(), nullptr,
                          nullptr, 0)
        == 1)
        return true;
    if (error)
        *error = lastError();
    return false;
}

bool PgSession::isBusy()
{
    // A failed read leaves the error to receive(), which then does not wait either.
    return m_conn && PQconsumeInput(m_conn) == 1 && PQisBusy(m_conn) == 1;
}

PgResult PgSession::receive()
{
    if (!m_conn)
        return PgResult::failure(u"not connected to the database"_s);
    // One statement was sent: its result, then the null that ends it.
    PgResult result = takeResult(PQgetResult(m_conn), m_conn);
    while (PGresult *extra = PQgetResult(m_conn))
        PQclear(extra);
    return result;
}

bool PgSession::execScript(const QString &sql, QString *error)
{
    if (!m_conn) {
        if (error)
            *error = u"not connected to the database"_s;
        return false;
    }
    PGresult *res = PQexec(m_conn, sql.toUtf8().constData());
    const ExecStatusType status = res ? PQresultStatus(res) : PGRES_FATAL_ERROR;
    const bool ok = status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK || status == PGRES_EMPTY_QUERY;
    if (!ok && error)
        *error = resultError(res, m_conn);
    PQclear(res);
    return ok;
}

QString PgSession::escapeTable(const QString &schema, const QString &table) const
{
    const QString name = escapeIdentifier(table);
    return schema.isEmpty() ? name : escapeIdentifier(schema) + u'.' + name;
}

QString PgSession::escapeIdentifier(const QString &identifier) const
{
    if (m_conn) {
        const QByteArray raw = identifier.toUtf8();
        if (char *escaped = PQescapeIdentifier(m_conn, raw.constData(), size_t(raw.size()))) {
            const QString out = QString::fromUtf8(escaped);
            PQfreemem(escaped);
            return out;
        }
    }
    QString quoted = identifier;
    quoted.replace(u'"', u"\"\""_s);
    return u'"' + quoted + u'"';
}

QString PgSession::lastError() const
{
    if (!m_conn)
        return u"not connected to the database"_s;
    const QString error = readableError(PQerrorMessage(m_conn));
    if (m_lastFatal->isEmpty() || error.contains(*m_lastFatal))
        return error;
    return *m_lastFatal + u" ("_s + error + u')';
}

QString PgSession::resultError(const PGresult *res, PGconn *conn)
{
    if (!res)
        return readableError(PQerrorMessage(conn));
    const char *primary = PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY);
    if (!primary) // client-side failures (lost connection) carry only the full message
        return readableError(PQresultErrorMessage(res));
    QString message = readableError(primary);
    const QByteArrayView state(PQresultErrorField(res, PG_DIAG_SQLSTATE));
    if (state.startsWith("23")) {
        // "Key (message_id)=(...) already exists", "Failing row contains (...)": the DETAIL quotes the row,
        // which may hold masked keys or payload fields. The constraint and the table say where instead.
        // The audit database's refusals raised with a class-23 code are whole in their primary message.
        const QString constraint = readableError(PQresultErrorField(res, PG_DIAG_CONSTRAINT_NAME));
        const QString table = readableError(PQresultErrorField(res, PG_DIAG_TABLE_NAME));
        if (!constraint.isEmpty() && !table.isEmpty() && !message.contains(constraint))
            message += u" (constraint %1 on %2)"_s.arg(constraint, table);
        else if (!table.isEmpty())
            message += u" (on %1)"_s.arg(table);
        return message;
    }
    if (state.startsWith("22")) {
        // `invalid input syntax for type uuid: "..."`, `value "..." is out of range`: the primary message
        // quotes the value the server could not take; its DETAIL may too (a JSON token).
        const qsizetype first = message.indexOf(u'"');
        const qsizetype last = message.lastIndexOf(u'"');
        if (first >= 0 && last > first)
            message.replace(first, last - first + 1, u"\"…\""_s);
        return message;
    }
    if (const char *detail = PQresultErrorField(res, PG_DIAG_MESSAGE_DETAIL))
        message += u" ("_s + readableError(detail) + u')';
    return message;
}

QString PgSession::readableError(const char *message)
{
    QString text = QString::fromUtf8(message).trimmed();
    text.replace(u"\n\t"_s, u" "_s);
    text.replace(u'\n', u' ');
    return text;
}

PgStatementCanceller::~PgStatementCanceller()
{
    disarm();
}

void PgStatementCanceller::arm(const PgSession &session)
{
    std::lock_guard lock(m_mutex);
    if (m_cancel)
        PQfreeCancel(m_cancel);
    m_cancel = session.handle() ? PQgetCancel(session.handle()) : nullptr;
}

void PgStatementCanceller::disarm()
{
    std::lock_guard lock(m_mutex);
    if (m_cancel)
        PQfreeCancel(m_cancel);
    m_cancel = nullptr;
}

void PgStatementCanceller::cancel()
{
    std::lock_guard lock(m_mutex);
    m_cancelled = true;
    if (m_cancel) {
        char buffer[256];
        PQcancel(m_cancel, buffer, sizeof buffer);
    }
}

bool PgStatementCanceller::isCancelled() const
{
    std::lock_guard lock(m_mutex);
    return m_cancelled;
}
