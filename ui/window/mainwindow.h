#pragma once

#include "app/remoterelayfeed.h"

#include <QMainWindow>
#include <QPointer>
#include <QTimer>

class QLabel;
class QSplitter;
class QTabWidget;

namespace switchyard {

class AppSettings;
class Clock;
class ExportDialog;
class HistoryStore;
class HostTableModel;
class HostsView;
class InFlightCounter;
class ModelTableModel;
class ModelsView;
class NoticeBar;
class RelayClient;
class RelayService;
class RemoteRelayFeed;
class RequestLogModel;
class RequestLogView;
class TimelineView;

// The window: the hosts as cards on top, the switch timeline under them, and the models and
// the request log in tabs below; the status bar says where the relay listens, how many hosts
// are up and how many requests are in flight.
class MainWindow final : public QMainWindow
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MainWindow)

public:
    // Everything passed in must outlive the window; settings may be null.
    MainWindow(const Clock &clock, HostTableModel *hosts, InFlightCounter *inFlight, AppSettings *settings,
               QWidget *parent = nullptr);
    ~MainWindow() override;

    void setService(switchyard::RelayService *service);
    void setHistory(switchyard::HistoryStore *store);
    // Shows a relay watched from here (its hosts; its history comes through setHistory() with
    // the feed's store) instead of the local one; setService() goes back.
    void setRemote(switchyard::RemoteRelayFeed *feed);

    NoticeBar *notice() const { return m_notice; }
    HostsView *hostsView() const { return m_hostsView; }
    ModelsView *modelsView() const { return m_modelsView; }
    TimelineView *timelineView() const { return m_timelineView; }
    RequestLogView *requestLogView() const { return m_requestLogView; }
    QTabWidget *tabs() const { return m_tabs; }
    QSplitter *splitter() const { return m_splitter; }
    QLabel *endpointLabel() const { return m_endpointLabel; }
    // The smallest the window gets: below it the timeline's controls and legend collide.
    static constexpr QSize MinimumSize{760, 520};
    ModelTableModel *modelTable() const { return m_modelTable; }
    RequestLogModel *requestLog() const { return m_requestLog; }
    QString statusText() const;
    // The base URL for clients (Copy Endpoint URL): the relay watched, else the one here, + "/v1".
    QString clientUrl() const;

    // Brings the window up and to the front (tray click, second launch).
    void activate();
    // Export Client Config: preview, copy, save, merge. Returns the dialog (it deletes itself
    // when closed).
    ExportDialog *showExportDialog(const QString &client = {});
    void showStatusMessage(const QString &text);

Q_SIGNALS:
    void settingsRequested();
    void reloadRequested();
    // The hosts editor, at host (empty: the first).
    void hostsEditorRequested(const QString &host);
    void quitRequested();
    // The user closed the window (it is hidden now; the relay goes on if there is a tray).
    void closed();

protected:
    void closeEvent(QCloseEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void showEvent(QShowEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void placeOnScreen();   // before the first show: a size that fits, or the saved geometry
    void keepOnScreen();    // once shown (the frame known): the whole frame on the screen
    void fitSplitter();     // the cards whole; the rest as the user left it, or the default split

private:
    void buildMenus();
    void updateStatus();
    void updateTabTitles();
    QWidget *section(const QString &title, QWidget *content, QWidget *trailing = nullptr);

    const Clock &m_clock;
    HostTableModel *m_hosts;
    InFlightCounter *m_inFlight;
    AppSettings *m_settings;
    QPointer<RelayService> m_service;
    QPointer<RemoteRelayFeed> m_remote;
    ModelTableModel *m_modelTable;
    RequestLogModel *m_requestLog;
    RelayClient *m_client;
    NoticeBar *m_notice;
    HostsView *m_hostsView;
    TimelineView *m_timelineView;
    ModelsView *m_modelsView;
    RequestLogView *m_requestLogView;
    QTabWidget *m_tabs;
    QSplitter *m_splitter;
    QLabel *m_hostsSummary;
    QLabel *m_endpointLabel;
    QLabel *m_hostsLabel;
    QLabel *m_inFlightLabel;
    QTimer m_statusTimer;
    QPointer<HistoryStore> m_history;
    QMetaObject::Connection m_liveRequests;   // the service's relay to the request log
    QMetaObject::Connection m_recorded;       // the store's new requests to the request log
    bool m_splitByUser = false;   // the splitter was moved (or restored): leave it be
    // A restored split is checked once the cards are laid out: one that would cut them is dropped.
    bool m_checkRestoredSplit = false;
    int m_restoredHostsHeight = 0;
};

} // namespace switchyard
