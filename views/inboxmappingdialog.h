#pragma once

#include "services/inbox/inboxmappingdraft.h"
#include "services/inbox/inboxmappingexplorer.h"
#include "services/inbox/inboxmappingset.h"

#include <QDialog>

class InboxBoardModel;
class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QSpinBox;
class QTabWidget;
class QTableView;
class QTableWidget;
class QTreeWidget;

// The inbox mapping editor (ARCHITECTURE.md, Data flows: Inbox): the profile's mappings, one per
// consumer. For the selected one: pick a database, list its tables with the catalogue's estimates, pick
// one; its columns are suggested; the status words are discovered and each is given a guessed state the
// operator confirms (Unknown and unseen words flagged); the same for an outbox; a preview of the board
// the mapping would show. The dialog only shows and edits: every database question goes to its
// InboxMappingExplorer (jobs off the UI thread), every guess comes from InboxMappingDraft. It never
// writes a policy file: mappings() goes to the profile, "Copy as policy YAML" to the clipboard.
class InboxMappingDialog final : public QDialog {
    Q_OBJECT
public:
    // `databases`: the default database and the profile's named ones, passwords applied (they are only
    // used to connect, never shown or stored). `policyNames`: consumers the policy file maps (it wins).
    InboxMappingDialog(const InboxMappingSet &databases, const QList<InboxMapping> &mappings,
                       const QStringList &policyNames = {}, QWidget *parent = nullptr);
    ~InboxMappingDialog() override;

    // The mappings as edited (the selected one taken from the form).
    QList<InboxMapping> mappings();
    // The selected mapping as the form states it now.
    InboxMapping formMapping() const;
    void selectMapping(const QString &name);
    // What "Copy as policy YAML" puts on the clipboard: the selected mapping as the policy's block.
    QString policyYaml() const;

    // For tests and screenshots.
    InboxMappingExplorer *explorer() const { return m_explorer; }
    QComboBox *databaseSelector() const { return m_database; }
    QTreeWidget *tableList() const { return m_tables; }
    QComboBox *columnSelector(const QString &key) const { return m_columns.value(key); }
    QTableWidget *wordTable() const { return m_words; }
    QTabWidget *tabs() const { return m_tabs; }
    QLineEdit *nameEdit() const { return m_name; }
    QLineEdit *consumerValueEdit() const { return m_consumerValue; }
    QCheckBox *outboxCheck() const { return m_hasOutbox; }
    QComboBox *outboxTableSelector() const { return m_outboxTable; }
    QComboBox *outboxPendingSelector() const { return m_outboxPending; }
    QTableView *previewTable() const { return m_previewTable; }
    QLabel *previewStatusLabel() const { return m_previewStatus; }
    QLabel *messageLabel() const { return m_message; }
    QPushButton *discoverWordsButton() const { return m_discoverWords; }
    QPushButton *previewButton() const { return m_previewButton; }
    QPushButton *listTablesButton() const { return m_listTables; }

    void accept() override;

public Q_SLOTS:
    void listTables();
    void discoverWords();
    void discoverOutboxWords();
    void preview();

private:
    void buildTableTab(QWidget *page);
    void buildWordsTab(QWidget *page);
    void buildOutboxTab(QWidget *page);
    void buildPreviewTab(QWidget *page);

    QString currentConninfo(QString *problem = nullptr) const;
    QString databaseKey() const;
    void loadForm(const InboxMapping &mapping);
    void storeForm();
    void onMappingRowChanged(int row);
    void onTableChosen();
    void showTables(const InboxMappingExplorer::Tables &tables);
    void showRelation(InboxMappingExplorer::Side side, const InboxMappingExplorer::Relation &relation);
    void showWords(InboxMappingExplorer::Side side, const InboxMappingExplorer::Words &words);
    void showVocabulary(const QList<InboxMappingDraft::Word> &words);
    QList<InboxMappingDraft::Word> vocabularyFromTable() const;
    void refreshWordChoices();
    void fillColumnChoices(const QHash<QString, QString> &types);
    void fillOutboxColumns(const QHash<QString, QString> &types);
    void showBusy(const QString &what);
    void showMessage(const QString &text);
    QStringList takenNames() const;

    InboxMappingSet m_databases;
    QList<InboxMapping> m_mappings;
    QStringList m_policyNames;
    int m_row = -1;
    InboxMappingExplorer *m_explorer;
    InboxBoardModel *m_previewModel;
    QHash<QString, QString> m_types;       // of the inbox table in the form
    QHash<QString, QString> m_outboxTypes; // of the outbox table in the form
    QString m_schema;                      // the inbox table in the form
    QString m_table;

    QListWidget *m_list = nullptr;
    QTabWidget *m_tabs = nullptr;
    QLineEdit *m_name = nullptr;
    QComboBox *m_template = nullptr;
    QComboBox *m_database = nullptr;
    QPushButton *m_listTables = nullptr;
    QLineEdit *m_tableFilter = nullptr;
    QTreeWidget *m_tables = nullptr;
    QLabel *m_tableInfo = nullptr;
    QHash<QString, QComboBox *> m_columns; // by mapping key: messageId, status, consumer...
    QLineEdit *m_consumerValue = nullptr;
    QSpinBox *m_stuckAfter = nullptr;
    QPushButton *m_discoverWords = nullptr;
    QLabel *m_wordMethod = nullptr;
    QTableWidget *m_words = nullptr;
    QComboBox *m_skipped = nullptr;
    QComboBox *m_releaseTo = nullptr;
    QCheckBox *m_hasOutbox = nullptr;
    QComboBox *m_outboxTable = nullptr;
    QComboBox *m_outboxStatus = nullptr;
    QComboBox *m_outboxCreated = nullptr;
    QComboBox *m_outboxPending = nullptr;
    QPushButton *m_discoverOutboxWords = nullptr;
    QLabel *m_outboxInfo = nullptr;
    QPushButton *m_previewButton = nullptr;
    QLabel *m_previewStatus = nullptr;
    QLabel *m_previewNotes = nullptr;
    QTableView *m_previewTable = nullptr;
    QLabel *m_message = nullptr;
    QPushButton *m_stop = nullptr;
};
