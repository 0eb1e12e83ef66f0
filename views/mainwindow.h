#pragma once

#include <QMainWindow>

class ConnectionsModel;
class LagView;
class QAbstractItemModel;
class QLabel;
class QTabWidget;
class QTreeView;

// The console's frame: connections on the left, work views in tabs, state in the status bar and a banner
// for problems the operator must see. It holds no services; app/ wires it.
class MainWindow final : public QMainWindow {
    Q_OBJECT
public:
    enum class BannerKind { None, Warning, Error };

    MainWindow(ConnectionsModel *connections, QAbstractItemModel *lag, QWidget *parent = nullptr);
    ~MainWindow() override;

    LagView *lagView() const { return m_lagView; }
    void setBanner(BannerKind kind, const QString &text);
    QString bannerText() const;
    void setKafkaStatus(const QString &text);
    void setDatabaseStatus(const QString &text);

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

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void createActions();
    void restoreLayout();
    QTreeView *m_connectionsTree;
    QDockWidget *m_connectionsDock;
    QTabWidget *m_tabs;
    LagView *m_lagView;
    QLabel *m_banner;
    QLabel *m_kafkaStatus;
    QLabel *m_databaseStatus;
};
