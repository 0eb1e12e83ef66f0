#pragma once

#include "services/inbox/inboxmapping.h"

#include <QList>
#include <QString>
#include <QStringList>

// Inbox mappings written as the policy file's `inbox:` / `outbox:` block (ARCHITECTURE.md, Contracts:
// Inbox mapping), and read back through the policy loader: the mapping editor's "Copy as policy YAML"
// and the connection profile both keep mappings in this one shape, so a mapping moves from a profile
// into a policy file unchanged. Berth writes this text for the operator; it never rewrites a policy file.
namespace InboxPolicyYaml {
// A complete `deliverySemantics: consumers:` document, one consumer per mapping (its name).
QString write(const QList<InboxMapping> &mappings);
// The mappings of such a document (or of a whole policy file); problems as "line:column: message".
QList<InboxMapping> read(const QString &yaml, QStringList *problems);
} // namespace InboxPolicyYaml
