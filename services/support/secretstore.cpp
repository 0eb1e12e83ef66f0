#include "secretstore.h"

#include <qt6keychain/keychain.h>

#include <QCoreApplication>

using namespace Qt::StringLiterals;

SecretStore::SecretStore(const QString &service, QObject *parent)
    : QObject(parent)
    , m_service(service)
{
}

void SecretStore::store(const QString &profile, const QHash<QString, QString> &secrets, Done done)
{
    QList<Step> steps;
    for (auto it = secrets.cbegin(); it != secrets.cend(); ++it)
        steps.append({Kind::Write, it.key(), it.value()});
    runSteps(profile, steps, Outcome{true}, std::move(done));
}

void SecretStore::fetch(const QString &profile, const QStringList &ids, Done done)
{
    QList<Step> steps;
    for (const QString &id : ids)
        steps.append({Kind::Read, id, {}});
    runSteps(profile, steps, Outcome{true}, std::move(done));
}

void SecretStore::erase(const QString &profile, const QStringList &ids, Done done)
{
    QList<Step> steps;
    for (const QString &id : ids)
        steps.append({Kind::Delete, id, {}});
    runSteps(profile, steps, Outcome{true}, std::move(done));
}

// One job at a time: keychain backends prompt or unlock on the first access, and a burst of parallel jobs
// would ask the operator several times.
void SecretStore::runSteps(const QString &profile, QList<Step> steps, Outcome outcome, Done done)
{
    if (steps.isEmpty() || !outcome.ok) {
        // Back to the caller from the event loop, never from inside the call that started the work.
        QMetaObject::invokeMethod(this, [done = std::move(done), outcome] { done(outcome); }, Qt::QueuedConnection);
        return;
    }
    const Step step = steps.takeFirst();
    QKeychain::Job *job = nullptr;
    switch (step.kind) {
    case Kind::Write: {
        auto *write = new QKeychain::WritePasswordJob(m_service, this);
        write->setTextData(step.value);
        job = write;
        break;
    }
    case Kind::Read:
        job = new QKeychain::ReadPasswordJob(m_service, this);
        break;
    case Kind::Delete:
        job = new QKeychain::DeletePasswordJob(m_service, this);
        break;
    }
    job->setInsecureFallback(false); // a plaintext file is exactly what this class exists to avoid
    job->setKey(profile + u'/' + step.id);
    connect(job, &QKeychain::Job::finished, this,
            [this, profile, steps, outcome, done, step](QKeychain::Job *finished) mutable {
                switch (finished->error()) {
                case QKeychain::NoError:
                    if (step.kind == Kind::Read)
                        outcome.secrets.insert(step.id, static_cast<QKeychain::ReadPasswordJob *>(finished)->textData());
                    break;
                case QKeychain::EntryNotFound:
                    if (step.kind == Kind::Read)
                        outcome.missing.append(step.id);
                    break; // deleting what is not there is fine
                case QKeychain::NoBackendAvailable:
                case QKeychain::NotImplemented:
                    outcome.keychainMissing = true;
                    Q_FALLTHROUGH();
                default:
                    outcome.ok = false;
                    outcome.error = finished->errorString();
                    break;
                }
                runSteps(profile, steps, outcome, std::move(done));
            });
    job->start(); // auto-deletes after finished
}

QString SecretStore::askEachTimeReason(const Outcome &outcome)
{
    if (outcome.ok)
        return {};
    const QString why = outcome.error.isEmpty() ? QCoreApplication::translate("SecretStore", "unknown error") : outcome.error;
    return outcome.keychainMissing
             ? QCoreApplication::translate("SecretStore",
                                           "No keychain service is available (%1). Berth never writes secrets to "
                                           "its settings file, so it asks for them each time.")
                   .arg(why)
             : QCoreApplication::translate("SecretStore",
                                           "The keychain refused (%1). Berth never writes secrets to its settings "
                                           "file, so it asks for them each time.")
                   .arg(why);
}
