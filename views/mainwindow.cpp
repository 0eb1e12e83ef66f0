#include "mainwindow.h"

#include "models/connectionsmodel.h"
#include "views/elidedlabel.h"
#include "views/wrappinglabel.h"
#include "views/shortcutsdialog.h"
#include "views/summarystrip.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QHeaderView>
#include <QKeySequence>
#include <QLabel>
#include <QLocale>
#include <QMenuBar>
#include <QMessageBox>
#include <QScreen>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QTreeView>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

// Icons live in this static library's resources, which must be pulled in explicitly.
static void initResources()
{
    Q_INIT_RESOURCE(app);
}

MainWindow::MainWindow(ConnectionsModel *connections, QWidget *parent)
    : QMainWindow(parent)
    , m_connectionsTree(new QTreeView)
    , m_connectionsDock(new QDockWidget(tr("Connections"), this))
    , m_tabs(new QTabWidget)
    , m_viewMenu(nullptr)
    , m_banner(new WrappingLabel)
    , m_kafkaStatus(new ElidedLabel)
    , m_databaseStatus(new ElidedLabel)
{
    initResources();
    setWindowTitle(tr("Berth — delivery correctness console"));
    setWindowIcon(QIcon(u":/berth/icons/berth.svg"_s));

    m_connectionsTree->setModel(connections);
    m_connectionsTree->setUniformRowHeights(true);
    m_connectionsTree->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_connectionsTree->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_connectionsTree->header()->setStretchLastSection(false);
    m_connectionsTree->expand(connections->indexFromItem(connections->clusterItem()));
    m_connectionsTree->setTextElideMode(Qt::ElideMiddle); // bootstrap lists are long; both ends matter
    // Newly listed brokers, topics and groups stay visible: the panel is an overview, not a file tree.
    connect(connections, &QAbstractItemModel::rowsInserted, m_connectionsTree,
            [tree = m_connectionsTree](const QModelIndex &parent) { tree->expand(parent); });
    m_connectionsDock->setObjectName(u"connectionsDock"_s);
    m_connectionsDock->setWidget(m_connectionsTree);
    addDockWidget(Qt::LeftDockWidgetArea, m_connectionsDock);
    m_connectionsTree->setMinimumWidth(360);

    // Problems are stated in words in a banner over the work area, not only as a colour somewhere.
    m_banner->setTextFormat(Qt::PlainText);
    m_banner->setWordWrap(true);
    m_banner->setContentsMargins(10, 6, 10, 6);
    m_banner->hide();

    auto *central = new QWidget;
    auto *layout = new QVBoxLayout(central);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_banner);
    layout->addWidget(m_tabs, 1);
    setCentralWidget(central);

    statusBar()->addWidget(m_kafkaStatus, 1);
    statusBar()->addPermanentWidget(m_databaseStatus);

    createActions();
    resize(1400, 880);
}

void MainWindow::addTab(const QString &name, QWidget *view, const QString &title)
{
    const int index = m_tabs->addTab(view, title);
    m_views.append({name, view, true});
    m_tabTitles.insert(view, title);
    auto *action = m_viewMenu->addAction(QString(title).remove(u'&'), this, [this, view] { showView(view); });
    if (index < 9)
        action->setShortcut(QKeySequence(Qt::ALT | Qt::Key(Qt::Key_1 + index)));
}

void MainWindow::addPanel(const QString &name, QWidget *panel, const QString &title, const QKeySequence &shortcut)
{
    auto *dock = new QDockWidget(QString(title).remove(u'&'), this);
    dock->setObjectName(name + u"Dock"_s); // saveState() knows docks by name
    dock->setWidget(panel);
    addDockWidget(Qt::BottomDockWidgetArea, dock);
    dock->hide();
    QAction *toggle = dock->toggleViewAction();
    toggle->setShortcut(shortcut);
    m_panelMenu->addAction(toggle);
    m_views.append({name, panel, false});
}

MainWindow::~MainWindow() = default;

void MainWindow::setTabCount(QWidget *view, qint64 count)
{
    const int index = m_tabs->indexOf(view);
    if (index < 0)
        return;
    const QString title = m_tabTitles.value(view);
    m_tabs->setTabText(index, count < 0 ? title : tr("%1 (%2)").arg(title, QLocale().toString(count)));
}

QString MainWindow::tabText(QWidget *view) const
{
    const int index = m_tabs->indexOf(view);
    return index < 0 ? QString() : m_tabs->tabText(index);
}

void MainWindow::setSummaryStrip(QWidget *strip)
{
    auto *layout = static_cast<QVBoxLayout *>(centralWidget()->layout());
    layout->insertWidget(layout->indexOf(m_tabs), strip);
}

void MainWindow::followSummary(const DeskSummary *summary, SummaryStrip *strip)
{
    setSummaryStrip(strip);
    // The strip and the tabs show the same figures.
    connect(summary, &DeskSummary::changed, strip, [this, summary, strip] {
        strip->setItems(summary->items());
        for (const MainView &view : std::as_const(m_views)) {
            if (view.isTab)
                setTabCount(view.widget, summary->tabCount(view.name));
        }
    });
}

void MainWindow::createActions()
{
    auto *file = menuBar()->addMenu(tr("&File"));
    auto *profiles = file->addAction(tr("Connection &profiles…"), this, &MainWindow::profilesRequested);
    profiles->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P));
    file->addSeparator();
    auto *quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    auto *view = menuBar()->addMenu(tr("&View"));
    auto *refresh = view->addAction(tr("&Refresh now"), this, &MainWindow::refreshRequested);
    refresh->setShortcut(QKeySequence::Refresh);
    auto *filter = view->addAction(tr("&Filter…"), this, [this] { Q_EMIT filterRequested(m_tabs->currentWidget()); });
    filter->setShortcut(QKeySequence::Find);
    view->addSeparator();
    view->addAction(m_connectionsDock->toggleViewAction());
    m_panelMenu = view;
    view->addSeparator();
    // Alt+1…9 reach the first nine views; these cycle through all of them, however many there are.
    auto *next = view->addAction(tr("&Next view"), this, [this] {
        m_tabs->setCurrentIndex((m_tabs->currentIndex() + 1) % std::max(1, m_tabs->count()));
    });
    next->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_PageDown));
    auto *previous = view->addAction(tr("&Previous view"), this, [this] {
        const int count = std::max(1, m_tabs->count());
        m_tabs->setCurrentIndex((m_tabs->currentIndex() + count - 1) % count);
    });
    previous->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_PageUp));
    view->addSeparator();
    m_viewMenu = view;

    auto *help = menuBar()->addMenu(tr("&Help"));
    auto *shortcuts = help->addAction(tr("&Keyboard shortcuts"), this, [this] { ShortcutsDialog(this, this).exec(); });
    shortcuts->setShortcut(QKeySequence(Qt::Key_F1));
    help->addAction(tr("&About Berth"), this, [this] {
        QMessageBox::about(this, tr("About Berth"),
                           tr("Berth %1\nA console for delivery correctness on Kafka: lag, dead letters, "
                              "and audited, four-eyes remediation.")
                               .arg(QApplication::applicationVersion()));
    });
}

void MainWindow::showEvent(QShowEvent *event)
{
    // Restored on first show, once the composition root has added every view.
    if (!m_layoutRestored) {
        m_layoutRestored = true;
        QSettings settings;
        settings.beginGroup(m_layoutGroup);
        restoreGeometry(settings.value(u"geometry"_s).toByteArray());
        restoreState(settings.value(u"state"_s).toByteArray());
        // A layout saved while something had widened the window comes back no larger than the screen.
        if (const QScreen *screen = this->screen()) {
            const QSize available = screen->availableGeometry().size();
            if (width() > available.width() || height() > available.height())
                resize(std::min(width(), available.width()), std::min(height(), available.height()));
        }
        m_tabs->setCurrentIndex(settings.value(u"tab"_s, 0).toInt());
    }
    QMainWindow::showEvent(event);
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    QSettings settings;
    settings.beginGroup(m_layoutGroup);
    settings.setValue(u"geometry"_s, saveGeometry());
    settings.setValue(u"state"_s, saveState());
    settings.setValue(u"tab"_s, m_tabs->currentIndex());
    Q_EMIT closing();
    event->accept();
}

void MainWindow::setBanner(BannerKind kind, const QString &text)
{
    if (kind == BannerKind::None || text.isEmpty()) {
        m_banner->hide();
        m_banner->clear();
        return;
    }
    const bool error = kind == BannerKind::Error;
    // Tinted for the palette in use, so the banner stays readable on a dark desktop too.
    const bool dark = palette().color(QPalette::Window).lightness() < 128;
    if (dark)
        m_banner->setStyleSheet(error ? u"background:#4a1c1c; color:#ffd7d2; border:1px solid #a04040; border-radius:4px;"_s
                                      : u"background:#4a3a10; color:#ffe6b0; border:1px solid #a08030; border-radius:4px;"_s);
    else
        m_banner->setStyleSheet(error ? u"background:#fdecea; color:#8a1c1c; border:1px solid #e0a0a0; border-radius:4px;"_s
                                      : u"background:#fff4e0; color:#7a4a00; border:1px solid #e8c98a; border-radius:4px;"_s);
    m_banner->setText(text);
    m_banner->show();
}

QString MainWindow::bannerText() const
{
    return m_banner->isHidden() ? QString() : m_banner->text();
}

void MainWindow::setKafkaStatus(const QString &text)
{
    m_kafkaStatus->setText(text);
}

QString MainWindow::kafkaStatus() const
{
    return m_kafkaStatus->text();
}

QString MainWindow::databaseStatus() const
{
    return m_databaseStatus->text();
}

void MainWindow::setDatabaseStatus(const QString &text)
{
    m_databaseStatus->setText(text);
    // The state is the part before any detail ("Database: unavailable — retrying (...)"): it keeps its room
    // beside a long Kafka status, in any language; a long detail is elided, whole in the tooltip.
    const QString state = text.section(u" \u2014 "_s, 0, 0).section(u'\n', 0, 0);
    const QFontMetrics metrics(m_databaseStatus->font());
    const QMargins margins = m_databaseStatus->contentsMargins();
    m_databaseStatus->setMinimumWidth(std::min(metrics.horizontalAdvance(state), metrics.averageCharWidth() * 40)
                                      + margins.left() + margins.right() + metrics.averageCharWidth());
}

QList<MainWindow::MainView> MainWindow::mainViews()
{
    QList<MainView> views{{u"connections"_s, m_connectionsDock, false}};
    views.append(m_views);
    return views;
}

void MainWindow::showView(QWidget *view)
{
    const int index = m_tabs->indexOf(view);
    if (index >= 0)
        m_tabs->setCurrentIndex(index);
    else if (auto *dock = qobject_cast<QDockWidget *>(view->parentWidget())) {
        dock->show();
        dock->raise();
    }
}
