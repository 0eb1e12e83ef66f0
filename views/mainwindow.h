#pragma once

#include <QHash>
#include <QMainWindow>

class ConnectionsModel;
class DeskSummary;
class SummaryStrip;
class ElidedLabel;
class QAbstractItemModel;
class QLabel;
class QDockWidget;
class QKeySequence;
class QMenu;
class QTabWidget;
class QTreeView;

// The console's frame: connections on the left, work views in tabs, state in the status bar and a banner
// for problems the operator must see. It holds no services; app/ wires it.
class MainWindow final : public QMainWindow {
    Q_OBJECT
public:
    enum class BannerKind { None, Warning, Error };

    explicit MainWindow(ConnectionsModel *connections, QWidget *parent = nullptr);
    ~MainWindow() override;

    // Work views are added by the composition root; each gets a tab, an entry in the View menu and Alt+N.
    void addTab(const QString &name, QWidget *view, const QString &title);
    // A dockable panel (log...), hidden until the operator opens it from the View menu or its shortcut.
    void addPanel(const QString &name, QWidget *panel, const QString &title, const QKeySequence &shortcut);
    // A figure on a view's tab ("DLQ (12)"); a negative count shows the bare title.
    void setTabCount(QWidget *view, qint64 count);
    QString tabText(QWidget *view) const;
    // The status-at-a-glance strip, over the tabs and under the banner.
    void setSummaryStrip(QWidget *strip);
    // Puts the strip over the tabs and keeps it and the tab counts on the summary's figures.
    void followSummary(const DeskSummary *summary, SummaryStrip *strip);
    void setBanner(BannerKind kind, const QString &text);
    QString bannerText() const;
    void setKafkaStatus(const QString &text);
    void setDatabaseStatus(const QString &text);
    QString kafkaStatus() const;
    QString databaseStatus() const;
    // Where geometry, docks and the current tab are kept (QSettings group): one layout per profile.
    void setLayoutGroup(const QString &group) { m_layoutGroup = group; }
    QString layoutGroup() const { return m_layoutGroup; }

    // Each main view by a short name, for screenshots and tests. A tab is pictured with the window around
    // it, a panel on its own.
    struct MainView {
        QString name;
        QWidget *widget;
        bool isTab;
    };
    QList<MainView> mainViews();
    void showView(QWidget *view);

Q_SIGNALS:
    void refreshRequested();
    void filterRequested(QWidget *currentView);
    void closing(); // persist view state now
    void profilesRequested();

protected:
    void showEvent(QShowEvent *event) override;
    void closeEvent(QCloseEvent *event) override;

private:
    void createActions();
    QTreeView *m_connectionsTree;
    QDockWidget *m_connectionsDock;
    QTabWidget *m_tabs;
    QMenu *m_viewMenu;
    QMenu *m_panelMenu = nullptr;
    QList<MainView> m_views;
    QHash<QWidget *, QString> m_tabTitles; // as added, with their mnemonic
    QLabel *m_banner;
    ElidedLabel *m_kafkaStatus;
    ElidedLabel *m_databaseStatus;
    bool m_layoutRestored = false;
    QString m_layoutGroup = QStringLiteral("window");
};
