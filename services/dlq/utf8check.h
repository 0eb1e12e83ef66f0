#pragma once

#include <QByteArrayView>

#include <cstring>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

// UTF-8 checks on the scan's path, which runs them on every value and header of every record. Dead
// letters are mostly ASCII (JSON, class names, English reasons): an ASCII run is passed over sixteen
// bytes at a time, and Qt's validator sees only what follows it.
namespace Utf8Check {
// How many leading bytes are ASCII, counted in steps: it may stop short of the first non-ASCII byte,
// never past it (so it ends on a character boundary). All of v when v is ASCII.
inline qsizetype asciiPrefix(QByteArrayView v)
{
    const char *p = v.data();
    const qsizetype n = v.size();
    qsizetype i = 0;
#ifdef __SSE2__
    const auto block = [p](qsizetype at) {
        return _mm_loadu_si128(reinterpret_cast<const __m128i *>(p + at));
    };
    for (; i + 64 <= n; i += 64) {
        const __m128i any =
            _mm_or_si128(_mm_or_si128(block(i), block(i + 16)), _mm_or_si128(block(i + 32), block(i + 48)));
        if (_mm_movemask_epi8(any))
            return i;
    }
    for (; i + 16 <= n; i += 16) {
        if (_mm_movemask_epi8(block(i)))
            return i;
    }
#endif
    for (; i + 8 <= n; i += 8) {
        quint64 w;
        std::memcpy(&w, p + i, 8);
        if (w & 0x8080808080808080ull)
            return i;
    }
    for (; i < n; ++i) {
        if (quint8(p[i]) >= 0x80)
            return i;
    }
    return n;
}

inline bool isValid(QByteArrayView v)
{
    const qsizetype ascii = asciiPrefix(v);
    return ascii == v.size() || v.sliced(ascii).isValidUtf8();
}

inline bool startsWithBom(QByteArrayView v)
{
    return v.size() >= 3 && quint8(v[0]) == 0xef && quint8(v[1]) == 0xbb && quint8(v[2]) == 0xbf;
}
} // namespace Utf8Check
