#include "inboxmappingdialog.h"

#include "views/tablecolumns.h"

#include "models/inboxboardmodel.h"
#include "services/policy/inboxpolicyyaml.h"
#include "services/support/profilesecrets.h"

#include <QCheckBox>
#include <QClipboard>
#include <QColor>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QLocale>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace {
// The mapping's optional and required columns, by the policy file's key, in the order the form shows.
struct ColumnField {
    const char16_t *key;
    const char *label;
    bool required;
};
const ColumnField kColumnFields[] = {
    {u"messageId", QT_TRANSLATE_NOOP("InboxMappingDialog", "&Message id / idempotency key:"), true},
    {u"status", QT_TRANSLATE_NOOP("InboxMappingDialog", "&Status:"), true},
    {u"updated", QT_TRANSLATE_NOOP("InboxMappingDialog", "&Updated:"), true},
    {u"consumer", QT_TRANSLATE_NOOP("InboxMappingDialog", "C&onsumer or group:"), false},
    {u"firstSeen", QT_TRANSLATE_NOOP("InboxMappingDialog", "&First seen:"), false},
    {u"attempts", QT_TRANSLATE_NOOP("InboxMappingDialog", "&Attempts:"), false},
    {u"error", QT_TRANSLATE_NOOP("InboxMappingDialog", "&Error:"), false},
    {u"topic", QT_TRANSLATE_NOOP("InboxMappingDialog", "&Topic:"), false},
    {u"payload", QT_TRANSLATE_NOOP("InboxMappingDialog", "Pa&yload:"), false},
};

QString &mappingColumn(InboxMapping &m, QStringView key)
{
    if (key == u"messageId")
        return m.messageIdColumn;
    if (key == u"status")
        return m.statusColumn;
    if (key == u"updated")
        return m.updatedColumn;
    if (key == u"consumer")
        return m.consumerColumn;
    if (key == u"firstSeen")
        return m.firstSeenColumn;
    if (key == u"attempts")
        return m.attemptsColumn;
    if (key == u"error")
        return m.errorColumn;
    if (key == u"topic")
        return m.topicColumn;
    return m.payloadColumn;
}

enum WordColumn { WordText, WordRows, WordState, WordNote, WordColumnCount };
constexpr int WordSeenRole = Qt::UserRole + 1;
constexpr int WordFromMappingRole = Qt::UserRole + 2;

QLabel *mappingLabel(QWidget *parent)
{
    auto *label = new QLabel(parent);
    label->setTextFormat(Qt::PlainText); // names and words from a database are data, never markup
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

// A column choice: the column's name as data, "name — type" as text; the first entry is "none".
void fillColumnChoice(QComboBox *combo, const QHash<QString, QString> &types, const QString &keep,
                      bool required)
{
    const QSignalBlocker block(combo);
    combo->clear();
    combo->addItem(required ? InboxMappingDialog::tr("— choose —") : InboxMappingDialog::tr("— none —"),
                   QString());
    QStringList names = types.keys();
    names.sort(Qt::CaseInsensitive);
    for (const QString &name : std::as_const(names))
        combo->addItem(u"%1 — %2"_s.arg(name, types.value(name)), name);
    if (!keep.isEmpty() && combo->findData(keep) < 0)
        combo->addItem(InboxMappingDialog::tr("%1 — not in the table read").arg(keep), keep);
    combo->setCurrentIndex(std::max(0, combo->findData(keep)));
}

QString mappedStateText(InboxState state)
{
    return InboxBoardModel().headerData(InboxBoardModel::columnOfState(state), Qt::Horizontal).toString();
}
} // namespace

InboxMappingDialog::InboxMappingDialog(const InboxMappingSet &databases, const QList<InboxMapping> &mappings,
                                       const QStringList &policyNames, QWidget *parent)
    : QDialog(parent)
    , m_databases(databases)
    , m_mappings(mappings)
    , m_policyNames(policyNames)
    , m_explorer(new InboxMappingExplorer(this))
    , m_previewModel(new InboxBoardModel(this))
    , m_list(new QListWidget(this))
    , m_tabs(new QTabWidget(this))
    , m_message(mappingLabel(this))
    , m_stop(new QPushButton(tr("S&top"), this))
{
    setWindowTitle(tr("Inbox mappings"));
    setObjectName(u"inboxMappingDialog"_s);

    auto *newMapping = new QPushButton(tr("&New"), this);
    auto *removeMapping = new QPushButton(tr("&Remove"), this);
    auto *left = new QWidget(this);
    auto *leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(new QLabel(tr("Mappings in this profile:"), left));
    leftLayout->addWidget(m_list, 1);
    auto *leftButtons = new QHBoxLayout;
    leftButtons->addWidget(newMapping);
    leftButtons->addWidget(removeMapping);
    leftLayout->addLayout(leftButtons);

    auto *tablePage = new QWidget(m_tabs);
    auto *wordsPage = new QWidget(m_tabs);
    auto *outboxPage = new QWidget(m_tabs);
    auto *previewPage = new QWidget(m_tabs);
    buildTableTab(tablePage);
    buildWordsTab(wordsPage);
    buildOutboxTab(outboxPage);
    buildPreviewTab(previewPage);
    m_tabs->addTab(tablePage, tr("&1 Table and columns"));
    m_tabs->addTab(wordsPage, tr("&2 Status words"));
    m_tabs->addTab(outboxPage, tr("&3 Outbox"));
    m_tabs->addTab(previewPage, tr("&4 Preview"));

    auto *splitter = new QSplitter(this);
    splitter->addWidget(left);
    splitter->addWidget(m_tabs);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({200, 760});

    auto *buttons = new QDialogButtonBox(this);
    auto *copyYaml = buttons->addButton(tr("Copy as policy &YAML"), QDialogButtonBox::ActionRole);
    copyYaml->setToolTip(
        tr("The selected mapping as the policy file's inbox block; Berth never writes the policy file"));
    buttons->addButton(m_stop, QDialogButtonBox::ActionRole);
    buttons->addButton(QDialogButtonBox::Save);
    buttons->addButton(QDialogButtonBox::Cancel);
    m_stop->setEnabled(false);
    m_stop->setToolTip(tr("Stop the statements still running"));

    m_message->setMinimumHeight(m_message->fontMetrics().lineSpacing() * 2);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(splitter, 1);
    layout->addWidget(m_message);
    layout->addWidget(buttons);
    resize(1020, 680);

    for (const InboxMapping &m : std::as_const(m_mappings))
        m_list->addItem(m.name);
    connect(m_list, &QListWidget::currentRowChanged, this, &InboxMappingDialog::onMappingRowChanged);
    connect(newMapping, &QPushButton::clicked, this, [this] {
        storeForm();
        InboxMapping fresh;
        fresh.name = tr("new consumer");
        m_mappings.append(fresh);
        m_list->addItem(fresh.name);
        m_list->setCurrentRow(int(m_mappings.size()) - 1);
        m_name->setFocus();
        m_name->selectAll();
    });
    connect(removeMapping, &QPushButton::clicked, this, [this] {
        if (m_row < 0)
            return;
        const int row = m_row;
        m_row = -1; // the form belongs to the removed mapping: nothing to store
        m_mappings.removeAt(row);
        delete m_list->takeItem(row);
        if (m_mappings.isEmpty())
            loadForm(InboxMapping{}); // nothing left to edit: New starts another
    });
    connect(copyYaml, &QPushButton::clicked, this, [this] {
        QGuiApplication::clipboard()->setText(policyYaml());
        showMessage(
            tr("Copied “%1” as the policy file's inbox block. Paste it under deliverySemantics: consumers: "
               "in the policy; the policy's mapping then wins over the profile's.")
                .arg(formMapping().name));
    });
    connect(m_stop, &QPushButton::clicked, this, [this] {
        m_explorer->cancel();
        m_stop->setEnabled(false);
        showMessage(tr("Stopped."));
    });
    connect(buttons, &QDialogButtonBox::accepted, this, &InboxMappingDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_explorer, &InboxMappingExplorer::tablesReady, this, &InboxMappingDialog::showTables);
    connect(m_explorer, &InboxMappingExplorer::relationReady, this, &InboxMappingDialog::showRelation);
    connect(m_explorer, &InboxMappingExplorer::wordsReady, this, &InboxMappingDialog::showWords);
    connect(m_explorer, &InboxMappingExplorer::previewReady, this, [this](const InboxBoard &board) {
        m_stop->setEnabled(m_explorer->isBusy());
        m_previewModel->setBoard(board);
        m_previewStatus->setText(m_previewModel->statusLine());
        QStringList notes;
        if (!board.unmappedStatuses.isEmpty())
            notes << tr("Words counted as Unknown: %1").arg(board.unmappedStatuses.join(u", "_s));
        if (board.ok())
            notes << m_previewModel->stuckLine() << m_previewModel->outboxLine();
        const QString indexes = m_previewModel->indexWarning();
        if (!indexes.isEmpty())
            notes << indexes;
        notes.removeAll(QString());
        m_previewNotes->setText(notes.join(u'\n'));
        showMessage(
            board.ok()
                ? tr("Preview read in %1 ms; nothing is saved until you press Save.").arg(board.elapsedMs)
                : tr("The preview could not be read: %1").arg(board.error));
    });

    if (m_mappings.isEmpty()) { // the form always edits a mapping of the list
        InboxMapping fresh;
        fresh.name = tr("new consumer");
        m_mappings.append(fresh);
        m_list->addItem(fresh.name);
    }
    m_list->setCurrentRow(0);
}

InboxMappingDialog::~InboxMappingDialog()
{
    m_explorer->cancel();
}

void InboxMappingDialog::buildTableTab(QWidget *page)
{
    m_name = new QLineEdit(page);
    m_name->setPlaceholderText(tr("the consumer (group) this inbox belongs to"));
    m_template = new QComboBox(page);
    m_template->addItem(tr("— start from a template —"));
    for (const InboxMapping &preset : InboxMapping::presets())
        m_template->addItem(preset.name);
    m_database = new QComboBox(page);
    m_database->setEditable(true);
    m_database->setInsertPolicy(QComboBox::NoInsert);
    m_database->addItem(tr("Default database (the profile's)"), QString());
    for (auto it = m_databases.databases.cbegin(); it != m_databases.databases.cend(); ++it)
        m_database->addItem(it.key(), it.key());
    m_database->setToolTip(tr("A database of the profile, or a libpq conninfo / service=name (no password: "
                              "the keychain or ~/.pgpass keeps it)"));
    m_listTables = new QPushButton(tr("&List tables"), page);
    m_tableFilter = new QLineEdit(page);
    m_tableFilter->setPlaceholderText(tr("Filter tables"));
    m_tableFilter->setClearButtonEnabled(true);
    m_tables = new QTreeWidget(page);
    m_tables->setRootIsDecorated(false);
    m_tables->setHeaderLabels({tr("Schema"), tr("Table"), tr("Kind"), tr("Rows (estimate)")});
    m_tables->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_tables->setMinimumHeight(140);
    m_tableInfo = mappingLabel(page);
    m_consumerValue = new QLineEdit(page);
    m_consumerValue->setToolTip(
        tr("With a consumer column: this consumer's value (its rows only). Without one: "
           "the consumer every row belongs to."));
    m_stuckAfter = new QSpinBox(page);
    m_stuckAfter->setRange(1, 7 * 24 * 3600);
    m_stuckAfter->setSuffix(tr(" s"));

    auto *top = new QFormLayout;
    top->addRow(tr("&Consumer:"), m_name);
    top->addRow(tr("Te&mplate:"), m_template);
    auto *dbRow = new QHBoxLayout;
    dbRow->addWidget(m_database, 1);
    dbRow->addWidget(m_listTables);
    auto *dbLabel = new QLabel(tr("&Database:"), page);
    dbLabel->setBuddy(m_database); // a row holding a layout gets no buddy of its own
    top->addRow(dbLabel, dbRow);
    top->addRow(tr("F&ilter:"), m_tableFilter);

    auto *columns = new QFormLayout;
    for (const ColumnField &field : kColumnFields) {
        auto *combo = new QComboBox(page);
        combo->setObjectName(u"column_"_s + QString::fromUtf16(field.key));
        m_columns.insert(QString::fromUtf16(field.key), combo);
        columns->addRow(tr(field.label), combo);
        connect(combo, &QComboBox::currentIndexChanged, this, [this] { showMessage({}); });
    }
    columns->addRow(tr("Consumer &value:"), m_consumerValue);
    columns->addRow(tr("Stuc&k after:"), m_stuckAfter);

    auto *layout = new QVBoxLayout(page);
    layout->addLayout(top);
    layout->addWidget(m_tables, 1);
    layout->addWidget(m_tableInfo);
    layout->addLayout(columns);

    connect(m_listTables, &QPushButton::clicked, this, &InboxMappingDialog::listTables);
    connect(m_name, &QLineEdit::textEdited, this, [this](const QString &name) {
        if (QListWidgetItem *item = m_list->item(m_row))
            item->setText(name.trimmed());
    });
    connect(m_tables, &QTreeWidget::currentItemChanged, this, &InboxMappingDialog::onTableChosen);
    connect(m_tableFilter, &QLineEdit::textChanged, this, [this](const QString &text) {
        for (int i = 0; i < m_tables->topLevelItemCount(); ++i) {
            QTreeWidgetItem *item = m_tables->topLevelItem(i);
            item->setHidden(!text.isEmpty() && !item->text(0).contains(text, Qt::CaseInsensitive)
                            && !item->text(1).contains(text, Qt::CaseInsensitive));
        }
    });
    connect(m_template, &QComboBox::activated, this, [this](int index) {
        if (index <= 0)
            return;
        InboxMapping preset = InboxMapping::presets().value(index - 1);
        preset.name = m_name->text();
        preset.database = databaseKey();
        loadForm(preset);
        m_template->setCurrentIndex(0);
        showMessage(
            tr("Filled in from the template; discover the status words to check them against the table."));
    });
}

void InboxMappingDialog::buildWordsTab(QWidget *page)
{
    m_discoverWords = new QPushButton(tr("&Discover status words"), page);
    m_wordMethod = mappingLabel(page);
    m_words = new QTableWidget(0, WordColumnCount, page);
    m_words->setHorizontalHeaderLabels({tr("Word"), tr("Rows"), tr("Berth state"), tr("Note")});
    m_words->verticalHeader()->hide();
    m_words->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_words->horizontalHeader()->setSectionResizeMode(WordNote, QHeaderView::Stretch);
    m_skipped = new QComboBox(page);
    m_skipped->setToolTip(tr("What a skip writes; none: skipping is not offered"));
    m_releaseTo = new QComboBox(page);
    m_releaseTo->setToolTip(
        tr("What “release” writes (a status word, or delete); none: release is not offered"));
    auto *form = new QFormLayout;
    form->addRow(tr("S&kip writes:"), m_skipped);
    form->addRow(tr("&Release writes:"), m_releaseTo);
    auto *layout = new QVBoxLayout(page);
    auto *row = new QHBoxLayout;
    row->addWidget(m_discoverWords);
    row->addWidget(m_wordMethod, 1);
    layout->addLayout(row);
    layout->addWidget(m_words, 1);
    layout->addLayout(form);
    connect(m_discoverWords, &QPushButton::clicked, this, &InboxMappingDialog::discoverWords);
}

void InboxMappingDialog::buildOutboxTab(QWidget *page)
{
    m_hasOutbox =
        new QCheckBox(tr("This consumer writes a transactional &outbox in the same database"), page);
    m_outboxTable = new QComboBox(page);
    m_outboxTable->setEditable(true);
    m_outboxTable->setInsertPolicy(QComboBox::NoInsert);
    m_outboxStatus = new QComboBox(page);
    m_outboxCreated = new QComboBox(page);
    m_outboxPending = new QComboBox(page);
    m_outboxPending->setEditable(true);
    m_outboxPending->setInsertPolicy(QComboBox::NoInsert);
    m_discoverOutboxWords = new QPushButton(tr("Disco&ver outbox words"), page);
    m_outboxInfo = mappingLabel(page);
    auto *form = new QFormLayout;
    form->addRow(tr("Outbox &table:"), m_outboxTable);
    form->addRow(tr("Outbox s&tatus:"), m_outboxStatus);
    form->addRow(tr("Outbox c&reated:"), m_outboxCreated);
    auto *pendingRow = new QHBoxLayout;
    pendingRow->addWidget(m_outboxPending, 1);
    pendingRow->addWidget(m_discoverOutboxWords);
    auto *pendingLabel = new QLabel(tr("&Pending word:"), page);
    pendingLabel->setBuddy(m_outboxPending);
    form->addRow(pendingLabel, pendingRow);
    auto *layout = new QVBoxLayout(page);
    layout->addWidget(m_hasOutbox);
    layout->addLayout(form);
    layout->addWidget(m_outboxInfo);
    layout->addStretch(1);
    const auto enable = [this](bool on) {
        for (QWidget *w : {static_cast<QWidget *>(m_outboxTable), static_cast<QWidget *>(m_outboxStatus),
                           static_cast<QWidget *>(m_outboxCreated), static_cast<QWidget *>(m_outboxPending),
                           static_cast<QWidget *>(m_discoverOutboxWords)})
            w->setEnabled(on);
    };
    connect(m_hasOutbox, &QCheckBox::toggled, this, enable);
    enable(false);
    connect(m_outboxTable, &QComboBox::activated, this, [this] {
        QString schema;
        QString table;
        QString error;
        InboxMapping::parseTableText(m_outboxTable->currentText().trimmed(), &schema, &table, &error);
        if (!error.isEmpty() || table.isEmpty()) {
            m_outboxInfo->setText(error);
            return;
        }
        showBusy(tr("Reading the outbox's columns…"));
        m_explorer->inspectTable(InboxMappingExplorer::Side::Outbox, currentConninfo(), schema, table);
    });
    connect(m_discoverOutboxWords, &QPushButton::clicked, this, &InboxMappingDialog::discoverOutboxWords);
}

void InboxMappingDialog::buildPreviewTab(QWidget *page)
{
    m_previewButton = new QPushButton(tr("&Preview the board"), page);
    m_previewButton->setToolTip(tr("Reads the board this mapping would show, without saving it"));
    m_previewStatus = mappingLabel(page);
    m_previewNotes = mappingLabel(page);
    m_previewTable = new QTableView(page);
    m_previewTable->setModel(m_previewModel);
    m_previewTable->verticalHeader()->hide();
    TableColumns::apply(m_previewTable);
    auto *layout = new QVBoxLayout(page);
    auto *row = new QHBoxLayout;
    row->addWidget(m_previewButton);
    row->addWidget(m_previewStatus, 1);
    layout->addLayout(row);
    layout->addWidget(m_previewTable, 1);
    layout->addWidget(m_previewNotes);
    connect(m_previewButton, &QPushButton::clicked, this, &InboxMappingDialog::preview);
}

QString InboxMappingDialog::databaseKey() const
{
    const int index = m_database->currentIndex();
    if (index >= 0 && m_database->itemText(index) == m_database->currentText())
        return m_database->itemData(index).toString();
    return m_database->currentText().trimmed();
}

QString InboxMappingDialog::currentConninfo(QString *problem) const
{
    InboxMapping probe;
    probe.database = databaseKey();
    return m_databases.conninfoFor(probe, problem);
}

void InboxMappingDialog::loadForm(const InboxMapping &mapping)
{
    m_name->setText(mapping.name);
    const int db = m_database->findData(mapping.database);
    if (db >= 0 && (!mapping.database.isEmpty() || db == 0))
        m_database->setCurrentIndex(db);
    else
        m_database->setEditText(mapping.database);
    InboxMapping copy = mapping;
    for (const ColumnField &field : kColumnFields)
        fillColumnChoice(m_columns.value(QString::fromUtf16(field.key)), m_types,
                         mappingColumn(copy, QStringView(field.key)), field.required);
    m_consumerValue->setText(mapping.consumerValue);
    m_stuckAfter->setValue(mapping.stuckAfterSeconds);
    m_tableInfo->setText(mapping.table.isEmpty()
                             ? tr("List the tables, then pick the inbox.")
                             : tr("Table: %1").arg(InboxMapping::tableText(mapping.schema, mapping.table)));
    m_schema = mapping.schema;
    m_table = mapping.table;
    m_wordMethod->clear();
    InboxDiscovery::StatusWords none;
    showVocabulary(InboxMappingDraft::vocabulary(none, mapping.statuses));
    refreshWordChoices();
    m_skipped->setCurrentIndex(std::max(0, m_skipped->findData(mapping.skippedStatus)));
    if (!mapping.releaseTo.isEmpty() && m_releaseTo->findData(mapping.releaseTo) < 0)
        m_releaseTo->addItem(mapping.releaseTo, mapping.releaseTo);
    m_releaseTo->setCurrentIndex(std::max(0, m_releaseTo->findData(mapping.releaseTo)));

    m_hasOutbox->setChecked(mapping.outbox.isConfigured());
    m_outboxTable->setEditText(mapping.outbox.isConfigured()
                                   ? InboxMapping::tableText(mapping.outbox.schema, mapping.outbox.table)
                                   : QString());
    fillColumnChoice(m_outboxStatus, m_outboxTypes, mapping.outbox.statusColumn, true);
    fillColumnChoice(m_outboxCreated, m_outboxTypes, mapping.outbox.createdColumn, true);
    m_outboxPending->clear();
    m_outboxPending->setEditText(mapping.outbox.pendingStatus);
    m_previewModel->setBoard(InboxBoard{});
    m_previewStatus->clear();
    m_previewNotes->clear();
}

InboxMapping InboxMappingDialog::formMapping() const
{
    InboxMapping m;
    if (m_row >= 0 && m_row < m_mappings.size())
        m = m_mappings.at(m_row); // keeps what the form does not show (retakes)
    m.name = m_name->text().trimmed();
    m.database = databaseKey();
    m.schema = m_schema;
    m.table = m_table;
    for (const ColumnField &field : kColumnFields)
        mappingColumn(m, QStringView(field.key)) =
            m_columns.value(QString::fromUtf16(field.key))->currentData().toString();
    m.consumerValue = m_consumerValue->text().trimmed();
    m.stuckAfterSeconds = m_stuckAfter->value();
    m.statuses = InboxMappingDraft::statusesOf(vocabularyFromTable());
    m.skippedStatus = m_skipped->currentData().toString();
    m.releaseTo = m_releaseTo->currentData().toString();
    m.outbox = {};
    if (m_hasOutbox->isChecked()) {
        QString error;
        InboxMapping::parseTableText(m_outboxTable->currentText().trimmed(), &m.outbox.schema,
                                     &m.outbox.table, &error);
        m.outbox.statusColumn = m_outboxStatus->currentData().toString();
        m.outbox.createdColumn = m_outboxCreated->currentData().toString();
        m.outbox.pendingStatus = m_outboxPending->currentText().trimmed();
    }
    return m;
}

void InboxMappingDialog::storeForm()
{
    if (m_row < 0 || m_row >= m_mappings.size())
        return;
    m_mappings[m_row] = formMapping();
    if (QListWidgetItem *item = m_list->item(m_row))
        item->setText(m_mappings.at(m_row).name);
}

void InboxMappingDialog::onMappingRowChanged(int row)
{
    storeForm();
    m_explorer->cancel();
    m_stop->setEnabled(false);
    m_row = row;
    if (row < 0 || row >= m_mappings.size())
        return;
    m_types.clear();
    m_outboxTypes.clear();
    loadForm(m_mappings.at(row));
    // The mapped table's columns and words, so the form shows what the table holds now.
    const InboxMapping &m = m_mappings.at(row);
    if (!m.table.isEmpty() && !currentConninfo().isEmpty()) {
        showBusy(tr("Reading %1…").arg(m.qualifiedTable()));
        m_explorer->inspectTable(InboxMappingExplorer::Side::Inbox, currentConninfo(), m.schema, m.table);
        if (m.outbox.isConfigured())
            m_explorer->inspectTable(InboxMappingExplorer::Side::Outbox, currentConninfo(), m.outbox.schema,
                                     m.outbox.table);
    }
}

QList<InboxMapping> InboxMappingDialog::mappings()
{
    storeForm();
    return m_mappings;
}

void InboxMappingDialog::selectMapping(const QString &name)
{
    for (int i = 0; i < m_mappings.size(); ++i) {
        if (m_mappings.at(i).name == name)
            m_list->setCurrentRow(i);
    }
}

QString InboxMappingDialog::policyYaml() const
{
    return InboxPolicyYaml::write({formMapping()});
}

QStringList InboxMappingDialog::takenNames() const
{
    QStringList names;
    for (int i = 0; i < m_mappings.size(); ++i) {
        if (i != m_row)
            names << m_mappings.at(i).name;
    }
    return names;
}

void InboxMappingDialog::accept()
{
    storeForm();
    for (int i = 0; i < m_mappings.size(); ++i) {
        QStringList others;
        for (int j = 0; j < m_mappings.size(); ++j) {
            if (j != i)
                others << m_mappings.at(j).name;
        }
        QString problem = InboxMappingDraft::problem(m_mappings.at(i), others);
        QString password;
        ProfileSecrets::stripPassword(m_mappings.at(i).database, &password);
        if (problem.isEmpty() && !password.isEmpty())
            problem =
                tr("The database names a password: keep it in a database of the profile (the keychain) or "
                   "~/.pgpass, never in the mapping.");
        if (!problem.isEmpty()) {
            m_list->setCurrentRow(i);
            showMessage(tr("“%1” cannot be saved yet: %2").arg(m_mappings.at(i).name, problem));
            return;
        }
    }
    QDialog::accept();
}

void InboxMappingDialog::listTables()
{
    QString problem;
    const QString conninfo = currentConninfo(&problem);
    if (conninfo.isEmpty()) {
        showMessage(problem.isEmpty() ? tr("Choose a database first.") : problem);
        return;
    }
    showBusy(tr("Reading the catalogue…"));
    m_explorer->listTables(conninfo);
}

void InboxMappingDialog::showTables(const InboxMappingExplorer::Tables &tables)
{
    m_stop->setEnabled(m_explorer->isBusy());
    if (!tables.error.isEmpty()) {
        showMessage(tr("Cannot list the tables: %1").arg(tables.error));
        return;
    }
    const QSignalBlocker block(m_tables);
    m_tables->clear();
    const QString schema = m_schema;
    const QString table = m_table;
    const QString outboxText = m_outboxTable->currentText();
    m_outboxTable->clear();
    for (const InboxDiscovery::TableEntry &t : tables.tables) {
        auto *item = new QTreeWidgetItem(
            m_tables, {t.schema, t.table, t.kind,
                       t.estimatedRows < 0 ? tr("not analysed") : QLocale().toString(t.estimatedRows)});
        item->setTextAlignment(3, Qt::AlignRight | Qt::AlignVCenter);
        if (t.table == table && (schema.isEmpty() || t.schema == schema))
            m_tables->setCurrentItem(item);
        m_outboxTable->addItem(InboxMapping::tableText(t.schema, t.table));
    }
    m_outboxTable->setEditText(outboxText);
    showMessage(tr("%n table(s) and view(s) you may read; estimates from the catalogue.", nullptr,
                   int(tables.tables.size())));
}

void InboxMappingDialog::onTableChosen()
{
    const QTreeWidgetItem *item = m_tables->currentItem();
    if (!item)
        return;
    m_schema = item->text(0);
    m_table = item->text(1);
    m_tableInfo->setText(
        tr("Table: %1 (%2)").arg(InboxMapping::tableText(item->text(0), item->text(1)), item->text(2)));
    showBusy(tr("Reading the columns of %1…").arg(item->text(1)));
    m_explorer->inspectTable(InboxMappingExplorer::Side::Inbox, currentConninfo(), item->text(0),
                             item->text(1));
}

void InboxMappingDialog::showRelation(InboxMappingExplorer::Side side,
                                      const InboxMappingExplorer::Relation &relation)
{
    m_stop->setEnabled(m_explorer->isBusy());
    if (side == InboxMappingExplorer::Side::Outbox) {
        m_outboxTypes = relation.info.types;
        const OutboxMapping current = formMapping().outbox;
        const OutboxMapping &s = relation.suggestedOutbox;
        fillColumnChoice(m_outboxStatus, m_outboxTypes,
                         m_outboxTypes.contains(current.statusColumn) ? current.statusColumn : s.statusColumn,
                         true);
        fillColumnChoice(
            m_outboxCreated, m_outboxTypes,
            m_outboxTypes.contains(current.createdColumn) ? current.createdColumn : s.createdColumn, true);
        m_outboxInfo->setText(relation.error.isEmpty()
                                  ? tr("%1: %2, about %3 rows")
                                        .arg(InboxMapping::tableText(relation.schema, relation.table),
                                             relation.info.relkindName,
                                             QLocale().toString(relation.info.estimatedRows))
                                  : relation.error);
        showMessage(relation.error);
        return;
    }
    if (!relation.error.isEmpty()) {
        showMessage(tr("Cannot read %1: %2").arg(relation.table, relation.error));
        return;
    }
    m_types = relation.info.types;
    // A column the form already names that the table has is kept; the rest take the suggestion.
    InboxMapping current = formMapping();
    InboxMapping suggested = relation.suggested;
    for (const ColumnField &field : kColumnFields) {
        const QString &now = mappingColumn(current, QStringView(field.key));
        fillColumnChoice(m_columns.value(QString::fromUtf16(field.key)), m_types,
                         m_types.contains(now) ? now : mappingColumn(suggested, QStringView(field.key)),
                         field.required);
    }
    QStringList notes{tr("Table: %1 (%2, about %3 rows)")
                          .arg(InboxMapping::tableText(relation.schema, relation.table),
                               relation.info.relkindName, QLocale().toString(relation.info.estimatedRows))};
    if (relation.info.isView)
        notes << tr("A view is read-only: skip, delete and release will be refused.");
    const QString columnProblems = relation.info.checkColumns(formMapping());
    if (!columnProblems.isEmpty())
        notes << columnProblems;
    m_tableInfo->setText(notes.join(u'\n'));
    showMessage(
        tr("Columns suggested from their names and types; check each, then discover the status words."));
}

void InboxMappingDialog::discoverWords()
{
    const InboxMapping m = formMapping();
    if (m.table.isEmpty() || m.statusColumn.isEmpty()) {
        showMessage(tr("Pick the table and its status column first."));
        return;
    }
    showBusy(tr("Discovering the status words of %1…").arg(m.qualifiedTable()));
    m_explorer->discoverWords(InboxMappingExplorer::Side::Inbox, currentConninfo(), m.schema, m.table,
                              m.statusColumn, m.consumerColumn);
}

void InboxMappingDialog::discoverOutboxWords()
{
    const OutboxMapping o = formMapping().outbox;
    if (o.table.isEmpty() || o.statusColumn.isEmpty()) {
        showMessage(tr("Pick the outbox table and its status column first."));
        return;
    }
    showBusy(tr("Discovering the outbox's status words…"));
    m_explorer->discoverWords(InboxMappingExplorer::Side::Outbox, currentConninfo(), o.schema, o.table,
                              o.statusColumn, {});
}

void InboxMappingDialog::showWords(InboxMappingExplorer::Side side, const InboxMappingExplorer::Words &words)
{
    m_stop->setEnabled(m_explorer->isBusy());
    if (!words.error.isEmpty()) {
        showMessage(tr("Cannot discover the status words: %1").arg(words.error));
        return;
    }
    if (side == InboxMappingExplorer::Side::Outbox) {
        const QString typed = m_outboxPending->currentText().trimmed();
        m_outboxPending->clear();
        m_outboxPending->addItems(words.words.words);
        const QString guess = InboxMappingDraft::guessPendingWord(words.words.words);
        m_outboxPending->setEditText(typed.isEmpty() ? guess : typed);
        m_outboxInfo->setText(tr("Words in the outbox: %1").arg(words.words.words.join(u", "_s)));
        showMessage({});
        return;
    }
    const QHash<QString, InboxState> current = InboxMappingDraft::statusesOf(vocabularyFromTable());
    showVocabulary(InboxMappingDraft::vocabulary(words.words, current));
    refreshWordChoices();
    m_wordMethod->setText(words.words.complete
                              ? tr("Found: %1.").arg(words.words.method)
                              : tr("Sampled, may miss rare words: %1.").arg(words.words.method));
    m_tabs->setCurrentIndex(1);
    showMessage(tr("Each word has a guessed state: confirm or change it. Unknown words are counted apart on "
                   "the board."));
}

void InboxMappingDialog::showVocabulary(const QList<InboxMappingDraft::Word> &words)
{
    m_words->setRowCount(0);
    m_words->setRowCount(int(words.size()));
    for (int row = 0; row < words.size(); ++row) {
        const InboxMappingDraft::Word &w = words.at(row);
        auto *word = new QTableWidgetItem(w.word);
        word->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
        word->setData(WordSeenRole, w.seen);
        word->setData(WordFromMappingRole, w.fromMapping);
        m_words->setItem(row, WordText, word);
        auto *rows = new QTableWidgetItem(w.rows < 0 ? QString() : QLocale().toString(w.rows));
        rows->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
        rows->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        m_words->setItem(row, WordRows, rows);
        auto *state = new QComboBox(m_words);
        for (int s = 0; s < InboxStateCount; ++s)
            state->addItem(mappedStateText(InboxState(s)), s);
        state->setCurrentIndex(state->findData(int(w.state)));
        state->setEnabled(w.word != u"NULL"_s); // a row without a status is always Unknown
        m_words->setCellWidget(row, WordState, state);
        auto *note = new QTableWidgetItem;
        note->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
        m_words->setItem(row, WordNote, note);
        const auto describe = [this, row] {
            const QList<InboxMappingDraft::Word> now = vocabularyFromTable();
            if (row >= now.size())
                return;
            const InboxMappingDraft::Word &cur = now.at(row);
            QString text;
            if (!cur.seen)
                text = tr("⚠ not seen in the table (a sample may miss it; it may be gone)");
            else if (cur.word == u"NULL"_s)
                text = tr("⚠ rows without a status: always Unknown");
            else if (cur.state == InboxState::Unknown)
                text = tr("⚠ Unknown: counted apart on the board until you map it");
            else if (!cur.fromMapping)
                text = tr("guessed: confirm");
            m_words->item(row, WordNote)->setText(text);
            m_words->item(row, WordNote)
                ->setForeground(cur.needsAttention() ? QColor(0xa0, 0x40, 0x00) : palette().text().color());
        };
        connect(state, &QComboBox::currentIndexChanged, this, [this, describe] {
            describe();
            refreshWordChoices();
        });
        describe();
    }
    const bool counted = std::any_of(words.cbegin(), words.cend(),
                                     [](const InboxMappingDraft::Word &w) { return w.rows >= 0; });
    m_words->setColumnHidden(WordRows, !counted);
}

QList<InboxMappingDraft::Word> InboxMappingDialog::vocabularyFromTable() const
{
    QList<InboxMappingDraft::Word> out;
    for (int row = 0; row < m_words->rowCount(); ++row) {
        const QTableWidgetItem *word = m_words->item(row, WordText);
        const auto *state = qobject_cast<QComboBox *>(m_words->cellWidget(row, WordState));
        if (!word || !state)
            continue;
        InboxMappingDraft::Word w;
        w.word = word->text();
        w.seen = word->data(WordSeenRole).toBool();
        w.fromMapping = word->data(WordFromMappingRole).toBool();
        w.state = InboxState(state->currentData().toInt());
        out.append(w);
    }
    return out;
}

void InboxMappingDialog::refreshWordChoices()
{
    const QList<InboxMappingDraft::Word> words = vocabularyFromTable();
    const QString skipped = m_skipped->currentData().toString();
    const QString release = m_releaseTo->currentData().toString();
    {
        const QSignalBlocker block(m_skipped);
        m_skipped->clear();
        m_skipped->addItem(tr("— none: skip not offered —"), QString());
        for (const InboxMappingDraft::Word &w : words) {
            if (w.word != u"NULL"_s)
                m_skipped->addItem(w.word, w.word);
        }
        const QString guess = InboxMappingDraft::firstWordIn(words, InboxState::Skipped);
        m_skipped->setCurrentIndex(std::max(0, m_skipped->findData(skipped.isEmpty() ? guess : skipped)));
    }
    {
        const QSignalBlocker block(m_releaseTo);
        m_releaseTo->clear();
        m_releaseTo->addItem(tr("— none: release not offered —"), QString());
        m_releaseTo->addItem(tr("delete the row"), u"delete"_s);
        for (const InboxMappingDraft::Word &w : words) {
            if (w.word != u"NULL"_s)
                m_releaseTo->addItem(w.word, w.word);
        }
        m_releaseTo->setCurrentIndex(std::max(0, m_releaseTo->findData(release)));
    }
}

void InboxMappingDialog::preview()
{
    const InboxMapping m = formMapping();
    const QString problem = m.validate();
    if (!problem.isEmpty()) {
        showMessage(tr("Not ready for a preview: %1").arg(problem));
        return;
    }
    QString dbProblem;
    const QString conninfo = currentConninfo(&dbProblem);
    if (conninfo.isEmpty()) {
        showMessage(dbProblem.isEmpty() ? tr("Choose a database first.") : dbProblem);
        return;
    }
    m_tabs->setCurrentIndex(3);
    showBusy(tr("Reading the board %1 would show…").arg(m.qualifiedTable()));
    m_explorer->preview(conninfo, m);
}

void InboxMappingDialog::showBusy(const QString &what)
{
    m_stop->setEnabled(true);
    showMessage(what);
}

void InboxMappingDialog::showMessage(const QString &text)
{
    QString shown = text;
    const QString name = m_name ? m_name->text().trimmed() : QString();
    if (m_policyNames.contains(name))
        shown = (shown.isEmpty() ? QString() : shown + u'\n')
                + tr("The policy file maps “%1” too; its mapping wins over this one.").arg(name);
    m_message->setText(shown);
}
