#include "inboxboard.h"

#include "services/payload/payloadmask.h"
#include "services/remediation/remediationtypes.h"
#include "services/remediation/requestitemdigests.h"

InboxBoard InboxBoard::masked(const KeyMask &mask) const
{
    InboxBoard out = *this;
    if (!hasStuck || oldestStuck.messageId.isEmpty())
        return out;
    QStringList verbatim;
    out.oldestStuck.messageId = RequestItemDigests::shownMessageId(
        mask, inboxRefFor(mappingName, oldestStuck.messageId, oldestStuck.consumer), &verbatim);
    for (InboxErrorCount &error : out.topErrors) {
        for (const QString &value : std::as_const(verbatim))
            error.error.replace(value, QLatin1StringView(PayloadMask::kMasked));
    }
    return out;
}
