#pragma once

#include <QByteArray>
#include <QByteArrayView>

// SHA-256, the one digest of Berth's contracts (ARCHITECTURE.md, Contracts: Audit database): a request
// item's payload pin, the digests of masked keys, a fetched dead letter's value. OpenSSL's, which uses the
// processor's SHA instructions: a replay checks the pin of every record it re-reads.
namespace Digest {
QByteArray sha256(QByteArrayView bytes); // the 32 raw bytes
}
