#include "audittypes.h"

#include <array>
#include <utility>

namespace {
constexpr std::array<std::pair<RemediationAction, QStringView>, 5> actionNames{{
    {RemediationAction::Replay, u"replay"},
    {RemediationAction::EditReplay, u"edit_replay"},
    {RemediationAction::Skip, u"skip"},
    {RemediationAction::Delete, u"delete"},
    {RemediationAction::ResetOffsets, u"reset_offsets"},
}};

constexpr std::array<std::pair<RequestStatus, QStringView>, 8> statusNames{{
    {RequestStatus::Pending, u"pending"},
    {RequestStatus::Approved, u"approved"},
    {RequestStatus::Rejected, u"rejected"},
    {RequestStatus::Expired, u"expired"},
    {RequestStatus::Executing, u"executing"},
    {RequestStatus::Completed, u"completed"},
    {RequestStatus::PartiallyFailed, u"partially_failed"},
    {RequestStatus::Cancelled, u"cancelled"},
}};

template <typename Enum, size_t N>
QString nameOf(const std::array<std::pair<Enum, QStringView>, N> &names, Enum value)
{
    for (const auto &[v, name] : names) {
        if (v == value)
            return name.toString();
    }
    return {};
}

template <typename Enum, size_t N>
std::optional<Enum> valueOf(const std::array<std::pair<Enum, QStringView>, N> &names, QStringView name)
{
    for (const auto &[v, n] : names) {
        if (n == name)
            return v;
    }
    return std::nullopt;
}
} // namespace

namespace AuditText {
QString actionName(RemediationAction action)
{
    return nameOf(actionNames, action);
}

std::optional<RemediationAction> actionFromName(QStringView name)
{
    return valueOf(actionNames, name);
}

QString statusName(RequestStatus status)
{
    return nameOf(statusNames, status);
}

std::optional<RequestStatus> statusFromName(QStringView name)
{
    return valueOf(statusNames, name);
}
} // namespace AuditText
