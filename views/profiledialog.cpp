#include "profiledialog.h"

#include "services/inbox/inboxmappingset.h"
#include "services/policy/policyloader.h"
#include "services/support/connectiontest.h"
#include "services/support/profilesecrets.h"
#include "services/support/secretstore.h"
#include "views/inboxmappingdialog.h"

#include <QDialogButtonBox>
#include <QEventLoop>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QSplitter>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace {
QStringList splitList(const QString &text)
{
    static const QRegularExpression separators(u"[,\\s]+"_s);
    return text.split(separators, Qt::SkipEmptyParts);
}

// What the operator reads in a prompt: "Kafka sasl.password" rather than the storage id.
QString secretLabel(const QString &id)
{
    if (id == QLatin1StringView(ProfileSecrets::DatabasePasswordId))
        return ProfileDialog::tr("Database password");
    return ProfileDialog::tr("Kafka %1").arg(id.section(u'/', 1));
}
} // namespace

ProfileDialog::ProfileDialog(ProfileStore *store, SecretStore *secrets, QWidget *parent)
    : QDialog(parent)
    , m_store(store)
    , m_secrets(secrets)
    , m_names(new QListWidget(this))
    , m_name(new QLineEdit(this))
    , m_bootstrap(new QLineEdit(this))
    , m_properties(new QPlainTextEdit(this))
    , m_groups(new QLineEdit(this))
    , m_dlqTopics(new QLineEdit(this))
    , m_duplicateTopics(new QLineEdit(this))
    , m_database(new QLineEdit(this))
    , m_databasePassword(new QLineEdit(this))
    , m_sslMode(new QLabel(this))
    , m_policy(new QLineEdit(this))
    , m_interval(new QSpinBox(this))
    , m_editMappings(new QPushButton(tr("Inbox &mappings…"), this))
    , m_mappingCount(new QLabel(this))
    , m_result(new QLabel(this))
    , m_test(new QPushButton(tr("&Test connection"), this))
{
    setWindowTitle(tr("Connection profiles"));
    setObjectName(u"profileDialog"_s);

    auto *newProfile = new QPushButton(tr("&New"), this);
    auto *remove = new QPushButton(tr("&Delete"), this);
    auto *left = new QWidget(this);
    auto *leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(m_names, 1);
    auto *leftButtons = new QHBoxLayout;
    leftButtons->addWidget(newProfile);
    leftButtons->addWidget(remove);
    leftLayout->addLayout(leftButtons);

    m_bootstrap->setPlaceholderText(u"broker-1:9092,broker-2:9092"_s);
    m_properties->setPlaceholderText(tr("Any librdkafka property, one per line:\nsecurity.protocol=SASL_SSL\n"
                                        "sasl.mechanisms=SCRAM-SHA-512\nsasl.username=berth\nsasl.password=…"));
    m_properties->setTabChangesFocus(true);
    m_groups->setPlaceholderText(tr("groups to watch where brokers cannot list them (comma-separated)"));
    m_dlqTopics->setPlaceholderText(tr("dead-letter topics (comma-separated)"));
    m_duplicateTopics->setPlaceholderText(tr("topics tailed for duplicate idempotency keys"));
    m_database->setPlaceholderText(tr("host=db port=5432 dbname=orders user=berth · postgresql://… · service=name"));
    m_databasePassword->setEchoMode(QLineEdit::Password);
    m_sslMode->setTextFormat(Qt::PlainText);
    m_interval->setRange(1, 300);
    m_interval->setSuffix(tr(" s"));
    auto *browse = new QPushButton(tr("&Browse…"), this);
    auto *policyRow = new QHBoxLayout;
    policyRow->addWidget(m_policy, 1);
    policyRow->addWidget(browse);

    auto *form = new QFormLayout;
    form->addRow(tr("&Name:"), m_name);
    form->addRow(tr("&Bootstrap servers:"), m_bootstrap);
    form->addRow(tr("Kafka &properties:"), m_properties);
    form->addRow(tr("Consumer &groups:"), m_groups);
    form->addRow(tr("D&LQ topics:"), m_dlqTopics);
    form->addRow(tr("Duplicate &tail:"), m_duplicateTopics);
    form->addRow(tr("&Inbox database:"), m_database);
    form->addRow(tr("Database pass&word:"), m_databasePassword);
    form->addRow(QString(), m_sslMode);
    auto *mappingRow = new QHBoxLayout;
    mappingRow->addWidget(m_editMappings);
    mappingRow->addWidget(m_mappingCount, 1);
    m_editMappings->setToolTip(tr("Map this profile's inbox and outbox tables (any names, any database)"));
    m_mappingCount->setTextFormat(Qt::PlainText);
    form->addRow(tr("Inbox tables:"), mappingRow);
    // A label of its own: a row given as a layout gets no buddy, and its ampersand would show.
    auto *policyLabel = new QLabel(tr("Delivery p&olicy:"), this);
    policyLabel->setBuddy(m_policy);
    form->addRow(policyLabel, policyRow);
    form->addRow(tr("Sample &every:"), m_interval);

    m_result->setTextFormat(Qt::PlainText);
    m_result->setWordWrap(true);
    m_result->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_result->setMinimumHeight(m_result->fontMetrics().lineSpacing() * 4);

    auto *buttons = new QDialogButtonBox(this);
    buttons->addButton(m_test, QDialogButtonBox::ActionRole);
    auto *saveButton = buttons->addButton(QDialogButtonBox::Save);
    auto *connectButton = buttons->addButton(tr("&Connect"), QDialogButtonBox::AcceptRole);
    buttons->addButton(QDialogButtonBox::Close);

    auto *right = new QWidget(this);
    auto *rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->addLayout(form, 1);
    rightLayout->addWidget(m_result);

    auto *splitter = new QSplitter(this);
    splitter->addWidget(left);
    splitter->addWidget(right);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({200, 640});
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(splitter, 1);
    layout->addWidget(buttons);
    resize(900, 620);

    connect(m_names, &QListWidget::currentTextChanged, this, &ProfileDialog::onSelectionChanged);
    connect(newProfile, &QPushButton::clicked, this, [this] {
        m_names->setCurrentRow(-1);
        setFormProfile(ConnectionProfile{tr("new profile"), {{u"bootstrap.servers"_s, u"localhost:9092"_s}}});
        m_name->setFocus();
        m_name->selectAll();
    });
    connect(remove, &QPushButton::clicked, this, &ProfileDialog::removeSelected);
    connect(m_database, &QLineEdit::textChanged, this, [this](const QString &conninfo) {
        m_sslMode->setText(conninfo.trimmed().isEmpty() ? QString()
                                                         : tr("sslmode: %1").arg(ProfileSecrets::sslModeOf(conninfo)));
    });
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Delivery policy"), m_policy->text(),
                                                          tr("YAML files (*.yaml *.yml);;All files (*)"));
        if (!path.isEmpty())
            m_policy->setText(path);
    });
    connect(m_test, &QPushButton::clicked, this, &ProfileDialog::testConnection);
    connect(m_editMappings, &QPushButton::clicked, this, &ProfileDialog::editInboxMappings);
    connect(saveButton, &QPushButton::clicked, this, &ProfileDialog::save);
    connect(connectButton, &QPushButton::clicked, this, &ProfileDialog::connectSelected);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    // A test's outcome describes the form as it was tested: an edit makes it stale, so it goes.
    const auto edited = [this] {
        if (m_showingTest)
            showResult({});
    };
    for (QLineEdit *edit : {m_name, m_bootstrap, m_groups, m_dlqTopics, m_duplicateTopics, m_database,
                            m_databasePassword, m_policy})
        connect(edit, &QLineEdit::textEdited, this, edited);
    connect(m_properties, &QPlainTextEdit::textChanged, this, [this, edited] {
        if (m_properties->hasFocus())
            edited();
    });
    connect(m_interval, &QSpinBox::valueChanged, this, edited);

    reloadNames();
    if (m_names->count() == 0)
        setFormProfile(ConnectionProfile{tr("local"), {{u"bootstrap.servers"_s, u"localhost:9092"_s}}});
}

void ProfileDialog::showProfileInUse(const ConnectionProfile &inUse)
{
    if (!m_names->findItems(inUse.name, Qt::MatchExactly).isEmpty()) {
        selectProfile(inUse.name);
        return;
    }
    ConnectionProfile shown = inUse;
    ProfileSecrets::extract(&shown); // never put a secret on screen
    m_names->setCurrentRow(-1);
    // Not the list: taking the focus, it would make its first profile current and load it over this one.
    m_name->setFocus();
    setFormProfile(shown);
    showResult(tr("“%1” is in use but not saved; Save keeps it.").arg(shown.name));
}

QStringList ProfileDialog::formState() const
{
    return {m_name->text(),
            m_bootstrap->text(),
            m_properties->toPlainText(),
            m_groups->text(),
            m_dlqTopics->text(),
            m_duplicateTopics->text(),
            m_database->text(),
            m_databasePassword->text(),
            m_policy->text(),
            QString::number(m_interval->value())};
}

void ProfileDialog::markClean()
{
    m_cleanState = formState();
    m_mappingsEdited = false;
}

bool ProfileDialog::hasUnsavedEdits() const
{
    return m_mappingsEdited || formState() != m_cleanState;
}

void ProfileDialog::reject()
{
    if (hasUnsavedEdits()) {
        QMessageBox ask(QMessageBox::Question, tr("Unsaved changes"),
                        tr("The profile “%1” has changes that are not saved.").arg(m_name->text()),
                        QMessageBox::Discard | QMessageBox::Cancel, this);
        ask.setDefaultButton(QMessageBox::Cancel);
        ask.setObjectName(u"unsavedChanges"_s);
        if (ask.exec() != QMessageBox::Discard)
            return;
    }
    QDialog::reject();
}

void ProfileDialog::reloadNames()
{
    const QString current = m_name->text();
    QSignalBlocker block(m_names);
    m_names->clear();
    m_names->addItems(m_store->names());
    const auto found = m_names->findItems(current, Qt::MatchExactly);
    if (!found.isEmpty())
        m_names->setCurrentItem(found.first());
}

void ProfileDialog::selectProfile(const QString &name)
{
    const auto found = m_names->findItems(name, Qt::MatchExactly);
    if (!found.isEmpty())
        m_names->setCurrentItem(found.first());
}

void ProfileDialog::onSelectionChanged()
{
    const auto stored = m_store->load(m_names->currentItem() ? m_names->currentItem()->text() : QString());
    if (stored)
        setFormProfile(stored->profile, stored->secretIds);
}

ConnectionProfile ProfileDialog::formProfile() const
{
    ConnectionProfile p;
    p.name = m_name->text().trimmed();
    if (!m_bootstrap->text().trimmed().isEmpty())
        p.cluster.append({u"bootstrap.servers"_s, m_bootstrap->text().trimmed()});
    const QStringList lines = m_properties->toPlainText().split(u'\n');
    for (const QString &raw : lines) {
        const QString line = raw.trimmed();
        if (line.isEmpty() || line.startsWith(u'#'))
            continue;
        const qsizetype eq = line.indexOf(u'=');
        // A line without "=" goes through as a key without a value: librdkafka then says what is wrong.
        p.cluster.append({eq > 0 ? line.left(eq).trimmed() : line, eq > 0 ? line.mid(eq + 1).trimmed() : QString()});
    }
    p.namedGroups = splitList(m_groups->text());
    p.dlqTopics = splitList(m_dlqTopics->text());
    p.duplicateTopics = splitList(m_duplicateTopics->text());
    p.databaseConninfo = m_database->text().trimmed();
    if (!m_databasePassword->text().isEmpty() && !p.databaseConninfo.isEmpty())
        p.databaseConninfo = ProfileSecrets::withPassword(p.databaseConninfo, m_databasePassword->text());
    p.policyPath = m_policy->text().trimmed();
    p.sampleIntervalMs = m_interval->value() * 1000;
    p.inboxMappings = m_inboxMappings;
    p.databases = m_databases;
    return p;
}

void ProfileDialog::setFormProfile(const ConnectionProfile &profile, const QStringList &storedSecretIds)
{
    m_storedSecretIds = storedSecretIds;
    m_name->setText(profile.name);
    QStringList lines;
    QString bootstrap;
    for (const auto &[key, value] : profile.cluster) {
        if (key == u"bootstrap.servers")
            bootstrap = value;
        else
            lines.append(key + u'=' + value);
    }
    m_bootstrap->setText(bootstrap);
    m_properties->setPlainText(lines.join(u'\n'));
    m_groups->setText(profile.namedGroups.join(u", "_s));
    m_dlqTopics->setText(profile.dlqTopics.join(u", "_s));
    m_duplicateTopics->setText(profile.duplicateTopics.join(u", "_s));
    QString password;
    m_database->setText(ProfileSecrets::stripPassword(profile.databaseConninfo, &password));
    m_databasePassword->setText(password);
    m_databasePassword->setPlaceholderText(
        storedSecretIds.contains(QLatin1StringView(ProfileSecrets::DatabasePasswordId))
            ? tr("kept in the keychain; type to replace")
            : tr("none: libpq may still use ~/.pgpass"));
    m_policy->setText(profile.policyPath);
    m_interval->setValue(qMax(1, profile.sampleIntervalMs / 1000));
    m_inboxMappings = profile.inboxMappings;
    m_databases = profile.databases;
    showMappingCount();
    QStringList kafkaSecrets;
    for (const QString &id : storedSecretIds) {
        if (id != QLatin1StringView(ProfileSecrets::DatabasePasswordId))
            kafkaSecrets.append(id.section(u'/', 1));
    }
    showResult(kafkaSecrets.isEmpty()
                   ? QString()
                   : tr("Kept in the keychain, not shown: %1. Leave a value empty to keep it.")
                         .arg(kafkaSecrets.join(u", "_s)));
    markClean();
}

QString ProfileDialog::resultText() const
{
    return m_result->text();
}

void ProfileDialog::showResult(const QString &text)
{
    m_result->setText(text);
    m_showingTest = false;
}

bool ProfileDialog::save()
{
    const ConnectionProfile profile = formProfile();
    if (profile.name.isEmpty()) {
        showResult(tr("A profile needs a name."));
        m_name->setFocus();
        return false;
    }
    const QHash<QString, QString> secrets = m_store->save(profile, m_storedSecretIds);
    markClean();
    m_store->setLastUsed(profile.name);
    const auto stored = m_store->load(profile.name);
    m_storedSecretIds = stored ? stored->secretIds : QStringList();
    reloadNames();
    selectProfile(profile.name);
    if (secrets.isEmpty()) {
        showResult(tr("Saved “%1”.").arg(profile.name));
        Q_EMIT savedSecrets(true, QString());
        return true;
    }
    showResult(tr("Saved “%1”; storing %n secret(s) in the keychain…", nullptr, int(secrets.size())).arg(profile.name));
    m_secrets->store(profile.name, secrets, [this, name = profile.name](const SecretStore::Outcome &outcome) {
        const QString message = outcome.ok ? tr("Saved “%1”; its secrets are in the keychain.").arg(name)
                                           : SecretStore::askEachTimeReason(outcome);
        showResult(message);
        Q_EMIT savedSecrets(outcome.ok, message);
    });
    return true;
}

void ProfileDialog::testConnection()
{
    ConnectionProfile profile = formProfile();
    showResult(tr("Testing…"));
    // Disabling the button would hand the focus to the next one (Close): a space would then close.
    const bool hadFocus = m_test->hasFocus();
    m_test->setEnabled(false);
    const auto run = [this, hadFocus](const ConnectionProfile &p) {
        m_testJobs.start(
            [p](const JobControl &) {
                const ConnectionCheck kafka = ConnectionTest::kafka(p.cluster);
                const ConnectionCheck db = p.databaseConninfo.isEmpty() ? ConnectionCheck{} : ConnectionTest::database(p.databaseConninfo);
                return std::pair{kafka, db};
            },
            [this, hadFocus, hasDb = !p.databaseConninfo.isEmpty()](
                const std::pair<ConnectionCheck, ConnectionCheck> &result) {
                const auto &[kafka, db] = result;
                QStringList text{(kafka.ok ? tr("Kafka ✔ %1") : tr("Kafka ✘ %1")).arg(kafka.summary)};
                if (!kafka.detail.isEmpty())
                    text.append(kafka.detail);
                if (hasDb) {
                    text.append((db.ok ? tr("Database ✔ %1") : tr("Database ✘ %1")).arg(db.summary));
                    if (!db.detail.isEmpty())
                        text.append(db.detail);
                } else {
                    text.append(tr("No inbox database configured."));
                }
                showResult(text.join(u'\n'));
                m_showingTest = true;
                m_test->setEnabled(true);
                if (hadFocus)
                    m_test->setFocus();
                Q_EMIT tested(kafka.ok, !hasDb || db.ok);
            });
    };
    withSecrets(profile, run);
}

void ProfileDialog::withSecrets(ConnectionProfile profile,
                                std::function<void(const ConnectionProfile &)> then)
{
    // Secrets the operator left empty come from the keychain, as they would on connect.
    QStringList needed;
    for (const QString &id : std::as_const(m_storedSecretIds)) {
        ConnectionProfile probe = profile;
        if (!ProfileSecrets::extract(&probe).contains(id))
            needed.append(id);
    }
    if (needed.isEmpty() || profile.name.isEmpty()) {
        then(profile);
        return;
    }
    m_secrets->fetch(profile.name, needed, [profile, then](const SecretStore::Outcome &outcome) mutable {
        ProfileSecrets::apply(&profile, outcome.secrets);
        then(profile);
    });
}

void ProfileDialog::showMappingCount()
{
    QStringList names;
    for (const InboxMapping &m : std::as_const(m_inboxMappings))
        names << m.name;
    m_mappingCount->setText(
        names.isEmpty() ? tr("none (the policy file may map some)")
                        : tr("%n mapping(s): %1", nullptr, int(names.size())).arg(names.join(u", "_s)));
}

void ProfileDialog::editInboxMappings()
{
    m_editMappings->setEnabled(false);
    withSecrets(formProfile(), [this](const ConnectionProfile &p) {
        m_editMappings->setEnabled(true);
        const InboxMappingSet databases = InboxMappingSet::resolve({}, {}, p.databaseConninfo, p.databases);
        InboxMappingDialog dialog(databases, m_inboxMappings, {}, this);
        // The profile's policy masks message ids in the preview as on the desk (a few kilobytes to read).
        if (!p.policyPath.isEmpty())
            dialog.explorer()->setKeyMask(KeyMask(loadPolicyFile(p.policyPath).policy));
        if (dialog.exec() != QDialog::Accepted)
            return;
        m_inboxMappings = dialog.mappings();
        m_mappingsEdited = true;
        showMappingCount();
        showResult(tr("Inbox mappings changed; Save keeps them in the profile."));
    });
}

void ProfileDialog::connectSelected()
{
    if (!save())
        return;
    const auto stored = m_store->load(m_name->text().trimmed());
    if (!stored)
        return;
    // The form holds what was just typed; the keychain fills in what was left empty.
    ConnectionProfile typed = formProfile();
    QHash<QString, QString> typedSecrets = ProfileSecrets::extract(&typed);
    StoredProfile pending = *stored;
    pending.secretIds.removeIf([&](const QString &id) { return typedSecrets.contains(id); });
    const auto resolved = resolveSecrets(pending, m_secrets, this);
    if (!resolved)
        return;
    ConnectionProfile profile = *resolved;
    ProfileSecrets::apply(&profile, typedSecrets);
    Q_EMIT connectRequested(profile);
    accept();
}

void ProfileDialog::removeSelected()
{
    const QString name = m_names->currentItem() ? m_names->currentItem()->text() : QString();
    if (name.isEmpty())
        return;
    if (QMessageBox::question(this, tr("Delete profile"), tr("Delete the profile “%1” and its keychain entries?").arg(name))
        != QMessageBox::Yes)
        return;
    const auto stored = m_store->load(name);
    m_store->remove(name);
    if (stored && !stored->secretIds.isEmpty())
        m_secrets->erase(name, stored->secretIds, [](const SecretStore::Outcome &) {});
    m_name->clear();
    reloadNames();
    showResult(tr("Deleted “%1”.").arg(name));
}

std::optional<ConnectionProfile> ProfileDialog::resolveSecrets(const StoredProfile &stored, SecretStore *secrets,
                                                               QWidget *parent)
{
    ConnectionProfile profile = stored.profile;
    if (stored.secretIds.isEmpty())
        return profile;
    SecretStore::Outcome outcome;
    QEventLoop loop;
    secrets->fetch(profile.name, stored.secretIds, [&](const SecretStore::Outcome &o) {
        outcome = o;
        loop.quit();
    });
    loop.exec();
    QHash<QString, QString> found = outcome.secrets;
    const QString why = outcome.ok ? tr("The keychain has no entry for it.") : SecretStore::askEachTimeReason(outcome);
    for (const QString &id : stored.secretIds) {
        if (found.contains(id))
            continue;
        bool ok = false;
        const QString value = QInputDialog::getText(parent, tr("Secret for “%1”").arg(profile.name),
                                                    tr("%1\n\n%2").arg(secretLabel(id), why), QLineEdit::Password,
                                                    QString(), &ok);
        if (!ok)
            return std::nullopt;
        found.insert(id, value);
    }
    ProfileSecrets::apply(&profile, found);
    return profile;
}
