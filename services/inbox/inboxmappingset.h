#pragma once

#include "services/inbox/inboxmapping.h"

#include <QList>
#include <QMap>
#include <QMetaType>
#include <QString>
#include <QStringList>

// The inbox mappings in force and the database each one lives in (ARCHITECTURE.md, Contracts: Inbox
// mapping): the policy file's mappings win over the connection profile's for the same consumer; a
// mapping without `database` uses the default database (the profile's, or the command line's --db); a
// `database` that names one of the profile's databases uses that entry (its password from the keychain),
// anything else is a libpq conninfo or URI. The presets are never in force unless one of these states them.
struct InboxMappingSet {
    enum class Source { Policy, Profile };

    QList<InboxMapping> mappings; // the policy's in file order, then the profile's it does not override
    QList<Source> sources;        // parallel to mappings
    QStringList notes;            // e.g. "the policy's mapping for X replaces the profile's"
    QString defaultConninfo;
    QMap<QString, QString> databases; // the profile's named databases, passwords applied

    static InboxMappingSet resolve(const QList<InboxMapping> &policy, const QList<InboxMapping> &profile,
                                   const QString &defaultConninfo, const QMap<QString, QString> &databases = {});

    bool isEmpty() const { return mappings.isEmpty(); }
    const InboxMapping *find(const QString &name) const;
    // The conninfo to connect with; empty (and *problem set) when the mapping names no usable database.
    QString conninfoFor(const InboxMapping &mapping, QString *problem = nullptr) const;
    // What to show for the mapping's database: the profile entry's name, the default's label, or the
    // conninfo without its password. Never a password.
    QString databaseLabel(const InboxMapping &mapping) const;
    // Distinct conninfos in first-use order (one connection each), and the mappings on one of them.
    QStringList conninfos() const;
    QList<InboxMapping> mappingsOn(const QString &conninfo) const;
    // "payments-db: payment-capture, refunds" for the connections panel (never a password).
    QString databaseTitle(const QString &conninfo) const;

    friend bool operator==(const InboxMappingSet &, const InboxMappingSet &) = default;
};
Q_DECLARE_METATYPE(InboxMappingSet)
