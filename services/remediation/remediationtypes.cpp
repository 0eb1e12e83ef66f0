#include "remediationtypes.h"

#include <QJsonObject>

using namespace Qt::StringLiterals;

QString replayIdFor(qint64 requestId, int itemNo)
{
    return QString::number(requestId) + u'-' + QString::number(itemNo);
}

bool parseReplayId(QByteArrayView replayId, qint64 *requestId, int *itemNo)
{
    const qsizetype dash = replayId.indexOf('-');
    if (dash <= 0 || dash == replayId.size() - 1)
        return false;
    bool ok1 = false;
    bool ok2 = false;
    const qint64 request = replayId.first(dash).toLongLong(&ok1);
    const int item = replayId.sliced(dash + 1).toInt(&ok2);
    if (!ok1 || !ok2 || request <= 0 || item <= 0)
        return false;
    *requestId = request;
    *itemNo = item;
    return true;
}

QJsonObject inboxRefFor(const QString &mapping, const QString &messageId, const QString &consumer)
{
    QJsonObject ref{{u"mapping"_s, mapping}, {u"messageId"_s, messageId}};
    if (!consumer.isEmpty())
        ref.insert(u"consumer"_s, consumer);
    return ref;
}
