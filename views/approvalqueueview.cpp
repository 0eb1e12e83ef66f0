#include "approvalqueueview.h"

#include "elidedlabel.h"
#include "views/tablecolumns.h"
#include "wrappinglabel.h"

#include "models/approvalqueuemodel.h"
#include "models/dlqbrowsermodel.h"
#include "models/payloaddiff.h"
#include "services/audit/auditwatcher.h"
#include "services/payload/confluentwireformat.h"
#include "services/support/digest.h"
#include "views/viewstate.h"

#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTextBlock>
#include <QTimer>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace {
QString sourceKey(const QString &topic, int partition, qint64 offset)
{
    return topic + u'/' + QString::number(partition) + u'/' + QString::number(offset);
}

QString utc(const QDateTime &t)
{
    return t.isValid() ? t.toUTC().toString(u"yyyy-MM-dd HH:mm:ss 'UTC'"_s) : QString();
}

// An edited item says so, and which schema id its bytes are framed with (a newer version of the subject
// may have been chosen): the approver sees what consumers will be told to decode it with.
QString editedText(const RequestItem &item)
{
    if (!item.editedPayload)
        return {};
    const int bytes = int(item.editedPayload->size());
    const ConfluentWireFormat::Header header = ConfluentWireFormat::readHeader(*item.editedPayload);
    if (!header.ok)
        return ApprovalQueueView::tr("edited (%n byte(s))", nullptr, bytes);
    return ApprovalQueueView::tr("edited (%n byte(s), schema id %1)", nullptr, bytes).arg(header.schemaId);
}

// Keys are bytes: text when they are valid UTF-8, hex otherwise.
QString keyText(const std::optional<QByteArray> &key)
{
    if (!key)
        return {};
    QStringDecoder decoder(QStringDecoder::Utf8);
    const QString text = decoder(*key);
    return decoder.hasError() ? u"0x"_s + QString::fromLatin1(key->toHex())
                              : DlqBrowserModel::visibleText(text);
}

QPlainTextEdit *readOnlyText(QWidget *parent)
{
    auto *edit = new QPlainTextEdit(parent);
    edit->setReadOnly(true);
    edit->setLineWrapMode(QPlainTextEdit::NoWrap);
    edit->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    return edit;
}
} // namespace

ApprovalQueueView::ApprovalQueueView(ApprovalQueueModel *model, QWidget *parent)
    : QWidget(parent)
    , m_model(model)
    , m_connection(new ElidedLabel(this))
    , m_split(new QSplitter(Qt::Vertical, this))
    , m_table(new QTableView(m_split))
    , m_tabs(new QTabWidget(m_split))
    , m_summary(readOnlyText(m_tabs))
    , m_items(new QTableWidget(m_tabs))
    , m_diff(readOnlyText(m_tabs))
    , m_comment(new QLineEdit(this))
    , m_approve(new QPushButton(tr("&Approve"), this))
    , m_reject(new QPushButton(tr("&Reject"), this))
    , m_why(new ElidedLabel(this))
    , m_result(new WrappingLabel(this))
    , m_tick(new QTimer(this))
{
    m_connection->setTextFormat(Qt::PlainText);
    auto *refresh = new QPushButton(tr("Refresh"), this);
    auto *top = new QHBoxLayout;
    top->addWidget(m_connection, 1);
    top->addWidget(refresh);

    // A request that leaves the queue while selected (decided elsewhere, expired) is not replaced by its
    // neighbour: the buttons must never silently point at another request. Connected before the
    // proxy is, so this runs while the selection still points at the leaving row.
    connect(m_model, &QAbstractItemModel::rowsAboutToBeRemoved, this,
            [this](const QModelIndex &, int first, int last) {
                const qint64 id = currentRequestId();
                const int row = m_model->rowOf(id);
                if (id == 0 || row < first || row > last)
                    return;
                QTimer::singleShot(0, this, [this, id] {
                    m_table->selectionModel()->clear();
                    if (id == m_decidedId || id == m_decidingId)
                        return; // our own decision says what happened
                    // What happened is read from the database: its status now, and who decided.
                    m_leftId = id;
                    setResult(tr("Request %1 left the queue; reading what happened to it…").arg(id), false);
                    Q_EMIT detailWanted(id);
                });
            });
    auto *proxy = new QSortFilterProxyModel(this);
    proxy->setSourceModel(m_model);
    proxy->setSortRole(ApprovalQueueModel::SortRole);
    m_table->setModel(proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(ApprovalQueueModel::Id, Qt::DescendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->hide();
    TableColumns::apply(m_table);

    m_items->setColumnCount(6);
    m_items->setHorizontalHeaderLabels(
        {tr("Item"), tr("Source"), tr("Key"), tr("Idempotency key"), tr("Payload SHA-256"), tr("Edited")});
    m_items->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_items->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_items->setSelectionMode(QAbstractItemView::SingleSelection);
    m_items->verticalHeader()->hide();
    TableColumns::apply(m_items);
    m_summary->setLineWrapMode(
        QPlainTextEdit::WidgetWidth); // prose: the ordering method is one long sentence
    m_tabs->addTab(m_summary, tr("Summary and dry run"));
    m_tabs->addTab(m_items, tr("Items"));
    m_tabs->addTab(m_diff, tr("Payload diff"));
    m_split->setStretchFactor(0, 2);
    m_split->setStretchFactor(1, 3);

    m_comment->setPlaceholderText(tr("Comment for the audit log (why you approve or reject)"));
    m_comment->setMaxLength(2000);
    auto *decide = new QHBoxLayout;
    decide->addWidget(new QLabel(tr("Comment:"), this));
    decide->addWidget(m_comment, 1);
    decide->addWidget(m_approve);
    decide->addWidget(m_reject);
    m_why->setTextFormat(Qt::PlainText);
    m_why->setEnabled(false); // reads as a hint
    m_result->setTextFormat(Qt::PlainText);
    m_result->setWordWrap(true);
    m_result->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_split, 1);
    layout->addLayout(decide);
    layout->addWidget(m_why);
    layout->addWidget(m_result);

    connect(refresh, &QPushButton::clicked, this, &ApprovalQueueView::refreshRequested);
    connect(m_approve, &QPushButton::clicked, this, [this] { submitDecision(true); });
    connect(m_reject, &QPushButton::clicked, this, [this] { submitDecision(false); });
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &ApprovalQueueView::onCurrentChanged);
    for (auto signal : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved})
        connect(m_model, signal, this, &ApprovalQueueView::updateButtons);
    connect(m_model, &QAbstractItemModel::dataChanged, this, &ApprovalQueueView::updateButtons);
    connect(m_model, &QAbstractItemModel::modelReset, this, &ApprovalQueueView::updateButtons);
    connect(m_items, &QTableWidget::currentCellChanged, this, [this](int row) { showItem(row); });
    // Ages and expiry move on between database reads.
    m_tick->setInterval(5000);
    connect(m_tick, &QTimer::timeout, m_model, &ApprovalQueueModel::tick);
    m_tick->start();
    onCurrentChanged();
}

void ApprovalQueueView::setConnectionState(const QString &text, bool connected)
{
    m_connection->setText(text);
    m_connection->setStyleSheet(connected ? QString() : u"color: #b00020;"_s);
    m_connected = connected;
    updateButtons();
}

qint64 ApprovalQueueView::currentRequestId() const
{
    const QModelIndex current = m_table->currentIndex();
    return current.isValid() ? current.data(ApprovalQueueModel::RequestIdRole).toLongLong() : 0;
}

void ApprovalQueueView::selectRequest(qint64 requestId)
{
    const int row = m_model->rowOf(requestId);
    if (row < 0)
        return;
    auto *proxy = static_cast<QSortFilterProxyModel *>(m_table->model());
    m_table->selectRow(proxy->mapFromSource(m_model->index(row, 0)).row());
}

void ApprovalQueueView::onCurrentChanged()
{
    const qint64 id = currentRequestId();
    if (id != m_shownId) {
        m_shownId = id;
        m_detail = RequestDetail();
        m_originals.clear();
        m_items->setRowCount(0);
        m_diff->setPlainText(tr("Select an edited item to compare its payload with the original record."));
        if (id != 0)
            m_result->clear();
        if (id != 0) {
            m_summary->setPlainText(tr("Reading request %1…").arg(id));
            Q_EMIT detailWanted(id);
        }
    }
    updateButtons();
}

void ApprovalQueueView::updateButtons()
{
    const int row = m_model->rowOf(currentRequestId());
    const RemediationRequest *request = m_model->request(row);
    const ApprovalQueueModel::Permission permission =
        request ? m_model->mayDecide(*request)
                : ApprovalQueueModel::Permission{false, tr("Select a pending request.")};
    for (QPushButton *button : {m_approve, m_reject}) {
        button->setEnabled(permission.allowed);
        button->setToolTip(permission.why);
    }
    m_comment->setEnabled(permission.allowed);
    m_why->setText(request ? permission.why : QString());
    if (currentRequestId() == 0)
        m_summary->setPlainText(m_model->rowCount() ? tr("Select a request to review it.")
                                : m_connected      ? tr("No requests are waiting for approval.")
                                                   : tr("The audit database cannot be read, so the queue is "
                                                        "unknown: %1").arg(m_connection->text()));
}

void ApprovalQueueView::setDetail(const RequestDetail &detail)
{
    if (detail.request.id == m_leftId && m_leftId != m_shownId) {
        m_leftId = 0;
        QStringList who;
        for (const Approval &a : detail.approvals)
            who << (a.approved ? tr("approved by %1") : tr("rejected by %1"))
                       .arg(DlqBrowserModel::visibleText(a.approver));
        setResult(who.isEmpty()
                      ? tr("Request %1 left the queue: it is %2 now.")
                            .arg(detail.request.id)
                            .arg(ApprovalQueueModel::statusText(detail.request.status))
                      : tr("Request %1 left the queue: it is %2 now (%3).")
                            .arg(detail.request.id)
                            .arg(ApprovalQueueModel::statusText(detail.request.status), who.join(u", "_s)),
                  false);
        return;
    }
    if (detail.request.id != m_shownId)
        return; // an answer for a request no longer selected
    m_detail = detail;
    const RemediationRequest &r = detail.request;
    const QDateTime now = m_model->now();
    QStringList lines;
    lines << tr("Request %1 — %2, %n item(s)", nullptr, r.itemCount)
                 .arg(r.id)
                 .arg(ApprovalQueueModel::actionText(r.action));
    lines << tr("Requested by %1 at %2").arg(r.requestedBy, utc(r.createdAt));
    lines << (r.expiresAt > now ? tr("Expires at %1").arg(utc(r.expiresAt))
                                : tr("Expired at %1: it can no longer be approved").arg(utc(r.expiresAt)));
    lines << tr("Status: %1, %2 of %3 approval(s)")
                 .arg(ApprovalQueueModel::statusText(r.status))
                 .arg(r.approvalCount)
                 .arg(r.requiredApprovals);
    lines << tr("Reason: %1 %2").arg(r.reasonCode, r.reason);
    if (!r.ticket.isEmpty())
        lines << tr("Ticket: %1").arg(r.ticket);
    lines << (r.destinationTopic.isEmpty() ? tr("Destination: each item's original topic")
                                           : tr("Destination: %1").arg(r.destinationTopic));
    lines << (r.rateLimit > 0 ? tr("Rate limit: %1 messages/s").arg(QLocale().toString(r.rateLimit))
                              : tr("Rate limit: none"));
    // One line each, so that making control characters visible below keeps the line breaks.
    lines << QString() << ApprovalQueueModel::dryRunDetails(r.dryRun).split(u'\n');
    if (!detail.approvals.isEmpty()) {
        lines << QString() << tr("Decisions:");
        for (const Approval &a : detail.approvals)
            lines << (a.approved ? tr("  %1 approved at %2: %3") : tr("  %1 rejected at %2: %3"))
                         .arg(a.approver, utc(a.at), a.comment);
    }
    if (detail.itemsTruncated)
        lines << QString() << tr("The first %1 items are listed.").arg(detail.items.size());
    // Reason, ticket and comments are typed by people: plain text, control characters made visible.
    for (QString &line : lines)
        line = DlqBrowserModel::visibleText(line);
    m_summary->setPlainText(lines.join(u'\n'));

    m_items->setRowCount(int(detail.items.size()));
    for (int row = 0; row < detail.items.size(); ++row) {
        const RequestItem &item = detail.items.at(row);
        const QString source =
            item.isDlqRecord()
                ? tr("%1 [%2] @ %3").arg(item.sourceTopic).arg(item.sourcePartition).arg(item.sourceOffset)
                : QString::fromUtf8(QJsonDocument(item.inboxRef).toJson(QJsonDocument::Compact));
        const QStringList cells = {QString::number(item.itemNo),
                                   DlqBrowserModel::visibleText(source),
                                   keyText(item.key),
                                   DlqBrowserModel::visibleText(item.idempotencyKey),
                                   QString::fromLatin1(item.payloadSha256.toHex()),
                                   editedText(item)};
        for (int c = 0; c < cells.size(); ++c)
            m_items->setItem(row, c, new QTableWidgetItem(cells.at(c)));
    }
    TableColumns::of(m_items)->fit();
    if (r.action == RemediationAction::EditReplay && !detail.items.isEmpty())
        selectItem(0);
}

void ApprovalQueueView::setDetailError(qint64 requestId, const QString &error)
{
    if (requestId == m_leftId && m_leftId != m_shownId) {
        m_leftId = 0;
        setResult(tr("Request %1 left the queue; what happened to it could not be read: %2")
                      .arg(requestId)
                      .arg(error),
                  true);
        return;
    }
    if (requestId == m_shownId)
        m_summary->setPlainText(tr("Could not read request %1: %2").arg(requestId).arg(error));
}

void ApprovalQueueView::selectItem(int row)
{
    m_items->setCurrentCell(row, 0);
    showItem(row);
}

void ApprovalQueueView::showItem(int row)
{
    if (row < 0 || row >= m_detail.items.size())
        return;
    const RequestItem &item = m_detail.items.at(row);
    if (!item.editedPayload)
        return;
    m_tabs->setCurrentWidget(m_diff);
    showDiff(item);
}

void ApprovalQueueView::showDiff(const RequestItem &item)
{
    QStringList header;
    QString body;
    const QString key = sourceKey(item.sourceTopic, item.sourcePartition, item.sourceOffset);
    const auto original = m_originals.constFind(key);
    if (!item.isDlqRecord() || (original != m_originals.cend() && !original->error.isEmpty())) {
        header << tr("# The original record is unavailable: %1")
                      .arg(item.isDlqRecord() ? original->error : tr("the item is not a Kafka record"));
        header << tr("# Edited payload:");
        body = DlqBrowserModel::visibleText(PayloadDiff::normalized(*item.editedPayload));
    } else if (original == m_originals.cend()) {
        m_originals.insert(key, {}); // asked once; the answer replaces this
        header << tr("# Reading the original record %1 from Kafka…").arg(key);
        body = DlqBrowserModel::visibleText(PayloadDiff::normalized(*item.editedPayload));
        Q_EMIT originalPayloadWanted(item.sourceTopic, item.sourcePartition, item.sourceOffset);
    } else {
        const QByteArray sha = original->valueSha256.isEmpty()
                                   ? Digest::sha256(original->payload)
                                   : original->valueSha256;
        const bool pinned = sha == item.payloadSha256;
        header << tr("# Item %1: original record %2 (-) against the edited payload (+)")
                      .arg(item.itemNo)
                      .arg(key);
        header << (pinned ? tr("# The original matches the pinned SHA-256.")
                          : tr("# WARNING: the record at this offset does not match the pinned SHA-256; the "
                               "executor will refuse this item."));
        body = PayloadDiff::unified(
            PayloadDiff::compare(original->payload, original->editedShown.value(item.itemNo, *item.editedPayload)));
    }
    m_diff->setPlainText(header.join(u'\n') + u'\n' + body);
    // Colour the changed lines; the text itself stays plain.
    QList<QTextEdit::ExtraSelection> marks;
    for (QTextBlock block = m_diff->document()->firstBlock(); block.isValid() && marks.size() < 20000;
         block = block.next()) {
        const QString text = block.text();
        if (!text.startsWith(u"+ ") && !text.startsWith(u"- "))
            continue;
        QTextEdit::ExtraSelection mark;
        mark.format.setBackground(text.startsWith(u'+') ? QColor(0x2e, 0xa0, 0x43, 60)
                                                        : QColor(0xd7, 0x3a, 0x49, 60));
        mark.format.setProperty(QTextFormat::FullWidthSelection, true);
        mark.cursor = QTextCursor(block);
        marks << mark;
    }
    m_diff->setExtraSelections(marks);
}

void ApprovalQueueView::setOriginalPayload(const QString &topic, int partition, qint64 offset,
                                           const QByteArray &payload, const QString &error,
                                           const QByteArray &valueSha256, const QHash<int, QByteArray> &editedShown)
{
    const QString key = sourceKey(topic, partition, offset);
    if (!m_originals.contains(key))
        return; // not asked for the request on screen
    m_originals.insert(key, {payload, error, valueSha256, editedShown});
    const int row = m_items->currentRow();
    if (row >= 0 && row < m_detail.items.size()
        && sourceKey(m_detail.items.at(row).sourceTopic, m_detail.items.at(row).sourcePartition,
                     m_detail.items.at(row).sourceOffset)
               == key)
        showDiff(m_detail.items.at(row));
}

void ApprovalQueueView::submitDecision(bool approve)
{
    const qint64 id = currentRequestId();
    if (id == 0)
        return;
    setResult(approve ? tr("Approving request %1…").arg(id) : tr("Rejecting request %1…").arg(id), false);
    m_decidingId = id;
    Q_EMIT decisionRequested(id, approve, m_comment->text().trimmed());
}

void ApprovalQueueView::showDecisionOutcome(const AuditDecisionOutcome &outcome)
{
    if (outcome.ok) {
        m_decidedId = outcome.requestId;
        m_comment->clear();
        setResult(outcome.approve ? tr("Request %1 approved.").arg(outcome.requestId)
                                  : tr("Request %1 rejected.").arg(outcome.requestId),
                  false);
        return;
    }
    // The database's own words: it is the authority on who may decide what.
    setResult(
        outcome.approve
            ? tr("The database refused to approve request %1: %2").arg(outcome.requestId).arg(outcome.error)
            : tr("The database refused to reject request %1: %2").arg(outcome.requestId).arg(outcome.error),
        true);
}

void ApprovalQueueView::setResult(const QString &text, bool problem)
{
    m_result->setText(DlqBrowserModel::visibleText(text));
    m_result->setStyleSheet(problem ? u"color: #b00020;"_s : QString());
}

QByteArray ApprovalQueueView::saveState() const
{
    return ViewState::save(m_split, m_table->horizontalHeader());
}

void ApprovalQueueView::restoreState(const QByteArray &state)
{
    ViewState::restore(m_split, m_table->horizontalHeader(), state);
}
