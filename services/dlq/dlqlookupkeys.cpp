#include "dlqlookupkeys.h"

void DlqLookupKeys::add(int partition, qint64 offset, const std::optional<QString> &idempotencyKey,
                        const std::optional<QByteArray> &key)
{
    if (!idempotencyKey && !key)
        return;
    std::lock_guard lock(m_mutex);
    Row row;
    if (idempotencyKey)
        row.idempotencyKeyId = idOf(*idempotencyKey);
    if (key) {
        row.key = qint32(m_keys.size());
        m_keys.push_back(*key);
    }
    m_rows.insert(slot(partition, offset), row);
}

quint32 DlqLookupKeys::idOf(const QString &idempotencyKey)
{
    auto it = m_idempotencyKeyIds.constFind(idempotencyKey);
    if (it != m_idempotencyKeyIds.cend())
        return *it;
    m_idempotencyKeys.push_back(idempotencyKey);
    const quint32 id = quint32(m_idempotencyKeys.size());
    m_idempotencyKeyIds.insert(idempotencyKey, id);
    return id;
}

std::optional<DlqLookupKeys::Keys> DlqLookupKeys::find(int partition, qint64 offset) const
{
    std::lock_guard lock(m_mutex);
    const auto it = m_rows.constFind(slot(partition, offset));
    if (it == m_rows.cend())
        return std::nullopt;
    Keys keys;
    keys.idempotencyKeyId = it->idempotencyKeyId;
    if (it->idempotencyKeyId)
        keys.idempotencyKey = m_idempotencyKeys[it->idempotencyKeyId - 1];
    if (it->key >= 0)
        keys.key = m_keys[size_t(it->key)];
    return keys;
}

bool DlqLookupKeys::isEmpty() const
{
    std::lock_guard lock(m_mutex);
    return m_rows.isEmpty();
}
