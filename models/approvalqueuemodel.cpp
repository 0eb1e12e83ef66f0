#include "approvalqueuemodel.h"

#include "models/displayformat.h"
#include "models/dlqbrowsermodel.h"
#include "services/remediation/offsetresetplanner.h"
#include "services/remediation/reclaimplanner.h"
#include "services/remediation/requestmask.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QLocale>
#include <QSet>
#include <QTextDocument>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace {
// The dry run's fields this desk explains in words (DryRunResult::toJson, services/remediation); anything
// else a newer Berth writes is still shown, as JSON.
const QStringList KnownDryRunKeys = {u"count"_s,
                                     u"reclaim"_s,
                                     u"destinationTopics"_s,
                                     u"sourcePartitions"_s,
                                     u"distinctKeys"_s,
                                     u"consumersAffected"_s,
                                     u"mergedCopies"_s,
                                     u"mergedCopySamples"_s,
                                     u"sharedIdempotencyItems"_s,
                                     u"sharedIdempotencyKeys"_s,
                                     u"inboxChecked"_s,
                                     u"keysLookedUp"_s,
                                     u"predictedNoOps"_s,
                                     u"predictedNoOpRate"_s,
                                     u"inboxError"_s,
                                     u"orderingChecked"_s,
                                     u"orderingRiskItems"_s,
                                     u"orderingRiskSamples"_s,
                                     u"orderingUnknownItems"_s,
                                     u"orderingMethod"_s,
                                     u"orderingError"_s,
                                     u"verdict"_s,
                                     u"requiredApprovals"_s,
                                     u"policyReasons"_s,
                                     u"notPredicted"_s,
                                     u"targetConsumer"_s,
                                     u"alsoReceives"_s,
                                     u"release"_s,
                                     u"releases"_s,
                                     u"releaseNotOffered"_s,
                                     u"offsetReset"_s};

QString joined(const QJsonValue &value)
{
    QStringList parts;
    for (const QJsonValue &v : value.toArray())
        parts << v.toString();
    return parts.join(u", "_s);
}

QString percent(double fraction)
{
    return QLocale().toString(fraction * 100.0, 'f', 1) + u" %"_s;
}

// Only fields whose value differs matter for a refresh: a changed status or a new approval.
bool sameShown(const RemediationRequest &a, const RemediationRequest &b)
{
    return a.status == b.status && a.approvalCount == b.approvalCount && a.itemCount == b.itemCount
           && a.expiresAt == b.expiresAt && a.requiredApprovals == b.requiredApprovals
           && a.dryRun == b.dryRun;
}
} // namespace

ApprovalQueueModel::ApprovalQueueModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

QDateTime ApprovalQueueModel::now() const
{
    return QDateTime::currentDateTimeUtc().addMSecs(m_clockOffsetMs);
}

void ApprovalQueueModel::setRequests(const QList<RemediationRequest> &requests, const QDateTime &databaseNow)
{
    if (databaseNow.isValid())
        m_clockOffsetMs = QDateTime::currentDateTimeUtc().msecsTo(databaseNow);
    QList<RemediationRequest> next = requests;
    // The dry run's words as the approver may read them (its tooltip): keys masked as the policy says.
    for (RemediationRequest &r : next)
        RequestMask::apply(m_keyMask, r.dryRun);
    std::sort(next.begin(), next.end(), [](const auto &a, const auto &b) { return a.id > b.id; });
    QSet<qint64> keep;
    for (const RemediationRequest &r : std::as_const(next))
        keep.insert(r.id);

    // Rows that left the queue (decided, expired, cancelled), removed in contiguous runs from the bottom.
    for (int row = int(m_requests.size()) - 1; row >= 0; --row) {
        if (keep.contains(m_requests.at(row).id))
            continue;
        const int last = row;
        while (row > 0 && !keep.contains(m_requests.at(row - 1).id))
            --row;
        beginRemoveRows({}, row, last);
        m_requests.remove(row, last - row + 1);
        endRemoveRows();
    }
    // What remains is a subsequence of `next` (both by id, descending): insert the gaps, update the rest.
    int row = 0;
    for (qsizetype i = 0; i < next.size();) {
        if (row < m_requests.size() && m_requests.at(row).id == next.at(i).id) {
            if (!sameShown(m_requests.at(row), next.at(i))) {
                m_requests[row] = next.at(i);
                Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
            }
            ++row;
            ++i;
            continue;
        }
        qsizetype end = i;
        while (end < next.size() && !(row < m_requests.size() && next.at(end).id == m_requests.at(row).id))
            ++end;
        beginInsertRows({}, row, row + int(end - i) - 1);
        for (qsizetype k = i; k < end; ++k)
            m_requests.insert(row + (k - i), next.at(k));
        endInsertRows();
        row += int(end - i);
        i = end;
    }
    // Ages and expiry are relative to the clock just read.
    tick();
}

void ApprovalQueueModel::setIdentity(const AuditIdentity &identity)
{
    m_identity = identity;
    if (!m_requests.isEmpty())
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

void ApprovalQueueModel::tick()
{
    if (!m_requests.isEmpty())
        Q_EMIT dataChanged(index(0, Age), index(rowCount() - 1, Expires));
}

int ApprovalQueueModel::rowOf(qint64 requestId) const
{
    for (int row = 0; row < m_requests.size(); ++row) {
        if (m_requests.at(row).id == requestId)
            return row;
    }
    return -1;
}

const RemediationRequest *ApprovalQueueModel::request(int row) const
{
    return row >= 0 && row < m_requests.size() ? &m_requests.at(row) : nullptr;
}

ApprovalQueueModel::Permission ApprovalQueueModel::mayDecide(const RemediationRequest &r) const
{
    if (m_identity.role.isEmpty())
        return {false, tr("Not connected to the audit database.")};
    if (r.status != RequestStatus::Pending)
        return {false, tr("Request %1 is %2: only pending requests are approved or rejected.")
                           .arg(r.id)
                           .arg(statusText(r.status))};
    if (r.isOverdue(now()))
        return {false, tr("Request %1 expired: it can no longer be approved or rejected.").arg(r.id)};
    if (!m_identity.isApprover)
        return {false, tr("Your role %1 is not a member of berth_approver.").arg(m_identity.role)};
    if (r.requestedBy == m_identity.role)
        return {false, tr("You requested this yourself: another person must approve or reject it.")};
    return {true, {}};
}

RequestDetail ApprovalQueueModel::shown(const RequestDetail &detail) const
{
    RequestDetail out = detail;
    RequestMask::apply(m_keyMask, out);
    return out;
}

QString ApprovalQueueModel::actionText(RemediationAction action)
{
    switch (action) {
    case RemediationAction::Replay:
        return tr("Replay");
    case RemediationAction::EditReplay:
        return tr("Edit and replay");
    case RemediationAction::Skip:
        return tr("Skip");
    case RemediationAction::Delete:
        return tr("Delete");
    case RemediationAction::ResetOffsets:
        return tr("Reset offsets");
    }
    return {};
}

QString ApprovalQueueModel::statusText(RequestStatus status)
{
    switch (status) {
    case RequestStatus::Pending:
        return tr("pending");
    case RequestStatus::Approved:
        return tr("approved");
    case RequestStatus::Rejected:
        return tr("rejected");
    case RequestStatus::Expired:
        return tr("expired");
    case RequestStatus::Executing:
        return tr("executing");
    case RequestStatus::Completed:
        return tr("completed");
    case RequestStatus::PartiallyFailed:
        return tr("partially failed");
    case RequestStatus::Cancelled:
        return tr("cancelled");
    }
    return {};
}

QString ApprovalQueueModel::dryRunSummary(const QJsonObject &d)
{
    if (d.isEmpty())
        return tr("no dry run");
    QStringList parts;
    if (d.contains(u"count"))
        parts << tr("%n item(s)", nullptr, d.value(u"count").toInt());
    if (const int merged = d.value(u"mergedCopies").toInt(); merged > 0)
        parts << tr("%n copy(ies) merged", nullptr, merged);
    if (const int shared = d.value(u"sharedIdempotencyItems").toInt(); shared > 0)
        parts << tr("%n item(s) share an idempotency key", nullptr, shared);
    if (d.value(u"inboxChecked").toBool())
        parts << tr("no-op %1").arg(percent(d.value(u"predictedNoOpRate").toDouble()));
    if (d.value(u"orderingChecked").toBool() && d.value(u"orderingRiskItems").toInt() > 0)
        parts << tr("ordering risk %1").arg(d.value(u"orderingRiskItems").toInt());
    if (d.contains(u"verdict"))
        parts << d.value(u"verdict").toString();
    return parts.isEmpty() ? QString::fromUtf8(QJsonDocument(d).toJson(QJsonDocument::Compact))
                           : parts.join(u" · "_s);
}

QString ApprovalQueueModel::dryRunDetails(const QJsonObject &d)
{
    if (d.isEmpty())
        return tr("No dry run was stored with this request.");
    QStringList lines;
    lines << tr("Blast radius: %n item(s)", nullptr, d.value(u"count").toInt());
    lines << tr("  destination topics: %1").arg(joined(d.value(u"destinationTopics")));
    lines << tr("  source partitions: %1").arg(joined(d.value(u"sourcePartitions")));
    lines << tr("  distinct keys: %1").arg(d.value(u"distinctKeys").toInt());
    lines << tr("  consumers affected: %1").arg(joined(d.value(u"consumersAffected")));
    if (const QString target = d.value(u"targetConsumer").toString(); !target.isEmpty())
        lines << tr("  for consumer: %1 (verified after execution); also receives: %2")
                     .arg(target, d.value(u"alsoReceives").toArray().isEmpty()
                                      ? tr("none")
                                      : joined(d.value(u"alsoReceives")));
    if (const QJsonObject reset = d.value(u"offsetReset").toObject(); !reset.isEmpty()) {
        // The plan in the planner's own lines: each partition's move, counts, no-op rate, ordering notes.
        const OffsetResetPlan plan = OffsetResetPlan::fromJson(reset);
        lines << tr("Offset reset of group %1 on %2 to %3: %n record(s) processed again, %4 skipped", nullptr,
                    int(plan.reprocessed()))
                     .arg(DlqBrowserModel::visibleText(plan.group), DlqBrowserModel::visibleText(plan.topic),
                          DlqBrowserModel::visibleText(plan.to))
                     .arg(plan.skipped());
        const QStringList planLines = plan.summary().split(u'\n', Qt::SkipEmptyParts);
        for (const QString &line : planLines.mid(1))
            lines << DlqBrowserModel::visibleText(line);
    }
    if (const QJsonObject reclaim = d.value(u"reclaim").toObject(); !reclaim.isEmpty()) {
        const ReclaimPlan plan = ReclaimPlan::fromJson(reclaim);
        lines
            << tr("Reclaim of stuck rows: %1 row(s) of %2 in progress for over %3 s, released for retry (%4) "
                  "right before their records from %5 are replayed; %6 record(s) are behind the group's "
                  "committed offset (not seen again otherwise); %7 row(s) have no record and are not in "
                  "this request; %8 pinned for release")
                   .arg(plan.rows.size())
                   .arg(plan.consumer)
                   .arg(plan.olderThanMs / 1000)
                   .arg(plan.releaseTo, plan.topic)
                   .arg(plan.committedPast())
                   .arg(plan.rows.size() - plan.found())
                   .arg(d.value(u"releases").toInt());
    } else if (d.value(u"release").toBool())
        lines
            << tr("Release and replay: %1 parked or failed inbox row(s) released right before their records "
                  "are produced; %2 cannot be released (no releaseTo in their mapping)")
                   .arg(d.value(u"releases").toInt())
                   .arg(d.value(u"releaseNotOffered").toInt());
    if (const int merged = d.value(u"mergedCopies").toInt(); merged > 0) {
        lines << tr("Copies merged: %n selected record(s) repeated an original record already in the request "
                    "(same original coordinates and payload SHA-256) and were filed once",
                    nullptr, merged);
        for (const QJsonValue &sample : d.value(u"mergedCopySamples").toArray())
            lines << u"  "_s + sample.toString();
    }
    if (const int shared = d.value(u"sharedIdempotencyItems").toInt(); shared > 0)
        lines << tr("Shared idempotency keys: %n item(s) are different records with a key another item has: %1",
                    nullptr, shared)
                     .arg(joined(d.value(u"sharedIdempotencyKeys")));
    if (d.value(u"inboxChecked").toBool())
        lines << tr("Predicted no-ops: %1 of %2 key(s) already completed in the inbox (%3)")
                     .arg(d.value(u"predictedNoOps").toInt())
                     .arg(d.value(u"keysLookedUp").toInt())
                     .arg(percent(d.value(u"predictedNoOpRate").toDouble()));
    else
        lines << tr("Predicted no-ops: not checked %1").arg(d.value(u"inboxError").toString());
    if (d.value(u"orderingChecked").toBool()) {
        lines << tr("Ordering risk: %1 item(s) have a later record of the same key; %2 unknown")
                     .arg(d.value(u"orderingRiskItems").toInt())
                     .arg(d.value(u"orderingUnknownItems").toInt());
        for (const QJsonValue &sample : d.value(u"orderingRiskSamples").toArray())
            lines << u"  "_s + sample.toString();
        if (const QString method = d.value(u"orderingMethod").toString(); !method.isEmpty())
            lines << u"  "_s + method;
    } else {
        lines << tr("Ordering risk: not checked %1").arg(d.value(u"orderingError").toString());
    }
    lines << tr("Policy: %1, %n approval(s) needed", nullptr, d.value(u"requiredApprovals").toInt(1))
                 .arg(d.value(u"verdict").toString());
    for (const QJsonValue &reason : d.value(u"policyReasons").toArray())
        lines << u"  "_s + reason.toString();
    QJsonObject other = d;
    for (const QString &key : KnownDryRunKeys)
        other.remove(key);
    if (!other.isEmpty())
        lines << tr("Other: %1").arg(QString::fromUtf8(QJsonDocument(other).toJson(QJsonDocument::Compact)));
    return lines.join(u'\n');
}

int ApprovalQueueModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_requests.size());
}

int ApprovalQueueModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString ApprovalQueueModel::cellText(const RemediationRequest &r, int column) const
{
    const QDateTime clock = now();
    switch (Column(column)) {
    case Id:
        return QString::number(r.id);
    case Action:
        return actionText(r.action);
    case Requester:
        return r.requestedBy;
    case Items:
        return DisplayFormat::count(r.itemCount);
    case Age:
        return DisplayFormat::duration(std::max<qint64>(0, r.createdAt.msecsTo(clock)));
    case Expires: {
        const qint64 left = clock.msecsTo(r.expiresAt);
        return left > 0 ? tr("in %1").arg(DisplayFormat::duration(left))
                        : tr("expired %1 ago").arg(DisplayFormat::duration(-left));
    }
    case Approvals:
        return tr("%1 of %2").arg(r.approvalCount).arg(r.requiredApprovals);
    case DryRun:
        return dryRunSummary(r.dryRun);
    case Reason:
        return r.reasonCode.isEmpty() ? r.reason : QString(r.reasonCode + u": "_s + r.reason);
    case Ticket:
        return r.ticket;
    case ColumnCount:
        break;
    }
    return {};
}

QVariant ApprovalQueueModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const RemediationRequest &r = m_requests.at(index.row());
    switch (role) {
    case RequestIdRole:
        return r.id;
    case SortRole:
        switch (index.column()) {
        case Id:
            return r.id;
        case Items:
            return r.itemCount;
        case Age:
            return r.createdAt;
        case Expires:
            return r.expiresAt;
        default:
            return cellText(r, index.column());
        }
    case Qt::DisplayRole:
        // Requests carry what people typed (reason, ticket): control characters made visible.
        return DlqBrowserModel::visibleText(cellText(r, index.column()));
    case Qt::ToolTipRole: {
        if (index.column() == DryRun)
            return Qt::convertFromPlainText(dryRunDetails(r.dryRun), Qt::WhiteSpacePre);
        if (index.column() == Expires)
            return QLocale().toString(r.expiresAt.toLocalTime(), QLocale::LongFormat);
        const Permission permission = mayDecide(r);
        return permission.allowed ? QVariant() : QVariant(Qt::convertFromPlainText(permission.why));
    }
    case Qt::ForegroundRole:
        // The operator's own requests, and expired ones, read as not actionable here.
        if (!mayDecide(r).allowed)
            return QVariant::fromValue(QColor(Qt::gray));
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() == Id || index.column() == Items)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    default:
        return {};
    }
}

QVariant ApprovalQueueModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (Column(section)) {
    case Id:
        return tr("Request");
    case Action:
        return tr("Action");
    case Requester:
        return tr("Requested by");
    case Items:
        return tr("Items");
    case Age:
        return tr("Age");
    case Expires:
        return tr("Expires");
    case Approvals:
        return tr("Approvals");
    case DryRun:
        return tr("Dry run");
    case Reason:
        return tr("Reason");
    case Ticket:
        return tr("Ticket");
    case ColumnCount:
        break;
    }
    return {};
}
