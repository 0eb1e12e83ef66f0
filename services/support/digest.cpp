#include "services/support/digest.h"

#include <openssl/evp.h>

namespace Digest {
QByteArray sha256(QByteArrayView bytes)
{
    QByteArray out(32, Qt::Uninitialized);
    unsigned int length = 0;
    if (EVP_Digest(bytes.data(), size_t(bytes.size()), reinterpret_cast<unsigned char *>(out.data()), &length,
                   EVP_sha256(), nullptr)
            != 1
        || length != 32)
        qFatal("SHA-256 is not available from OpenSSL");
    return out;
}
} // namespace Digest
