#include "kcatrecords.h"

#include <QProcess>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace {
// A reader for the flat objects kcat -J prints: string keys; string, number, null or array values.
class Reader {
public:
    explicit Reader(QByteArrayView text)
        : m_text(text)
    {
    }

    bool failed() const { return !m_error.isEmpty(); }
    QString error() const { return m_error; }

    bool consume(char c)
    {
        skipSpace();
        if (m_pos < m_text.size() && m_text[m_pos] == c) {
            ++m_pos;
            return true;
        }
        return false;
    }

    bool peek(char c)
    {
        skipSpace();
        return m_pos < m_text.size() && m_text[m_pos] == c;
    }

    void expect(char c)
    {
        if (!consume(c))
            fail(u"expected '"_s + QLatin1Char(c) + u'\'');
    }

    // A string's bytes (escapes decoded), or nullopt for null.
    std::optional<QByteArray> stringOrNull()
    {
        skipSpace();
        if (m_text.sliced(m_pos).startsWith("null")) {
            m_pos += 4;
            return std::nullopt;
        }
        if (!consume('"')) {
            fail(u"expected a string or null"_s);
            return QByteArray();
        }
        QByteArray out;
        while (m_pos < m_text.size()) {
            const char c = m_text[m_pos++];
            if (c == '"')
                return out;
            if (c != '\\') {
                out += c;
                continue;
            }
            if (m_pos >= m_text.size())
                break;
            const char e = m_text[m_pos++];
            switch (e) {
            case 'b':
                out += '\b';
                break;
            case 'f':
                out += '\f';
                break;
            case 'n':
                out += '\n';
                break;
            case 'r':
                out += '\r';
                break;
            case 't':
                out += '\t';
                break;
            case 'u': {
                bool ok = false;
                const uint code = m_pos + 4 <= m_text.size()
                                      ? QByteArray(m_text.sliced(m_pos, 4).toByteArray()).toUInt(&ok, 16)
                                      : 0;
                if (!ok || code > 0x7f) { // kcat escapes control characters only
                    fail(u"unexpected \\u escape"_s);
                    return out;
                }
                out += char(code);
                m_pos += 4;
                break;
            }
            default:
                out += e; // \" \\ \/
            }
        }
        fail(u"unterminated string"_s);
        return out;
    }

    qint64 number()
    {
        skipSpace();
        const qsizetype start = m_pos;
        while (m_pos < m_text.size()
               && (m_text[m_pos] == '-' || (m_text[m_pos] >= '0' && m_text[m_pos] <= '9')))
            ++m_pos;
        bool ok = false;
        const qint64 v = m_text.sliced(start, m_pos - start).toByteArray().toLongLong(&ok);
        if (!ok)
            fail(u"expected a number"_s);
        return v;
    }

    void fail(const QString &why)
    {
        if (m_error.isEmpty())
            m_error = why + u" at byte "_s + QString::number(m_pos);
    }

private:
    void skipSpace()
    {
        while (m_pos < m_text.size()
               && (m_text[m_pos] == ' ' || m_text[m_pos] == '\n' || m_text[m_pos] == '\r'))
            ++m_pos;
    }

    QByteArrayView m_text;
    qsizetype m_pos = 0;
    QString m_error;
};
} // namespace

QByteArray KcatRecord::header(QByteArrayView name) const
{
    for (auto it = headers.crbegin(); it != headers.crend(); ++it) {
        if (it->first == name)
            return it->second.value_or(QByteArray());
    }
    return {};
}

namespace Kcat {
bool parseLine(QByteArrayView line, KcatRecord *record, QString *error)
{
    Reader r(line);
    r.expect('{');
    bool first = true;
    while (!r.failed() && !r.consume('}')) {
        if (!first)
            r.expect(',');
        first = false;
        const QByteArray name = r.stringOrNull().value_or(QByteArray());
        r.expect(':');
        if (name == "partition") {
            record->partition = int(r.number());
        } else if (name == "offset") {
            record->offset = r.number();
        } else if (name == "key") {
            record->key = r.stringOrNull();
        } else if (name == "payload") {
            record->value = r.stringOrNull();
        } else if (name == "headers") {
            r.expect('[');
            while (!r.failed() && !r.consume(']')) {
                if (!record->headers.isEmpty())
                    r.expect(',');
                const QByteArray headerName = r.stringOrNull().value_or(QByteArray());
                r.expect(',');
                record->headers.append({headerName, r.stringOrNull()});
            }
        } else if (r.peek('"') || r.peek('n')) {
            r.stringOrNull(); // topic, tstype, ...
        } else {
            r.number(); // ts, broker
        }
    }
    if (r.failed())
        *error =
            r.error() + u" in: "_s + QString::fromUtf8(line.first(std::min<qsizetype>(line.size(), 200)));
    return !r.failed();
}

QList<KcatRecord> readAll(const QString &bootstrap, const QString &topic, QString *error)
{
    QProcess kcat;
    kcat.start(u"kcat"_s, {u"-C"_s, u"-b"_s, bootstrap, u"-t"_s, topic, u"-o"_s, u"beginning"_s, u"-e"_s,
                           u"-J"_s, u"-q"_s});
    if (!kcat.waitForFinished(120'000) || kcat.exitStatus() != QProcess::NormalExit || kcat.exitCode() != 0) {
        *error = u"kcat failed: "_s + QString::fromUtf8(kcat.readAllStandardError());
        return {};
    }
    QList<KcatRecord> out;
    // One object per line: kcat escapes line breaks inside strings, so a raw '\n' ends a record.
    const QList<QByteArray> lines = kcat.readAllStandardOutput().split('\n');
    for (const QByteArray &line : lines) {
        if (line.trimmed().isEmpty())
            continue;
        KcatRecord record;
        if (!parseLine(line, &record, error))
            return {};
        out.append(std::move(record));
    }
    std::stable_sort(out.begin(), out.end(), [](const KcatRecord &a, const KcatRecord &b) {
        return a.partition != b.partition ? a.partition < b.partition : a.offset < b.offset;
    });
    return out;
}
} // namespace Kcat
