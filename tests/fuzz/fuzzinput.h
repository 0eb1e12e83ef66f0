#pragma once

#include <QByteArray>
#include <QByteArrayView>

#include <cstddef>
#include <cstdint>

// Splits one fuzz input into the pieces a target needs (choices, lengths, byte strings), so that
// libFuzzer's mutations of one piece leave the others where they were.
class FuzzInput final {
public:
    FuzzInput(const uint8_t *data, size_t size)
        : m_data(reinterpret_cast<const char *>(data))
        , m_size(qsizetype(size))
    {
    }

    bool atEnd() const { return m_at >= m_size; }
    quint8 byte() { return atEnd() ? 0 : quint8(m_data[m_at++]); }
    quint16 u16() { return quint16(byte() | (byte() << 8)); }
    // A length-prefixed piece: one length byte (0xff: two more bytes of length follow).
    QByteArrayView bytes()
    {
        qsizetype n = byte();
        if (n == 0xff)
            n = u16();
        return take(n);
    }
    QByteArrayView take(qsizetype n)
    {
        n = qMin(n, m_size - m_at);
        const QByteArrayView out(m_data + m_at, n);
        m_at += n;
        return out;
    }
    QByteArrayView rest() { return take(m_size - m_at); }

private:
    const char *m_data;
    qsizetype m_size;
    qsizetype m_at = 0;
};
