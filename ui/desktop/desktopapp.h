#pragma once

#include <QObject>
#include <QPointer>
#include <QStringList>
#include <QTimer>
#include <QUrl>

#include <QTemporaryDir>

#include <chrono>
#include <memory>

namespace switchyard {

class AppSettings;
class Autostart;
class Clock;
class ConfigReloader;
class HistoryStore;
class HostsEditorDialog;
class HostTableModel;
class InFlightCounter;
class MainWindow;
class RelayRunner;
class RelayService;
class RemoteRelayFeed;
class SingleInstance;
class TrayController;

// The desktop around a running relay: the window, the tray, the single-instance socket, the
// settings dialog and config reloads, wired to the RelayRunner and the history store.
//
// With a tray, closing the window keeps the relay running there. Without one, the window is
// the app: `--tray` says on stderr and in the window that there is no tray, and shows it.
class DesktopApp final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DesktopApp)

public:
    struct Options
    {
        bool trayOnly = false;   // --tray: start with only the tray icon
        // How long --tray waits for a tray to appear (a panel starting at login with us).
        std::chrono::milliseconds trayWait{std::chrono::seconds(3)};
        QStringList overrides;   // command-line flags that win over the settings
        // The command line names the relay to run (--config, --upstream, --listen, --demo): the
        // settings' "watch the relay at URL" does not apply (see StartupConfig::watchedRelay).
        bool relayFromCommandLine = false;
    };

    // Everything passed in must outlive the app object; settings and reloader may be null.
    DesktopApp(const Clock &clock, RelayRunner *runner, HistoryStore *history, AppSettings *settings,
               ConfigReloader *reloader, Options options, QObject *parent = nullptr);
    ~DesktopApp() override;

    // Shows the window and/or the tray icon, as the options and the desktop allow.
    void start();
    // Answers second launches on this local socket name (see SingleInstance).
    bool listenForActivation(const QString &name, QString *error);

    MainWindow *window() const { return m_window.get(); }
    TrayController *tray() const { return m_tray.get(); }
    HostTableModel *hosts() const { return m_hosts; }
    InFlightCounter *inFlight() const { return m_inFlight; }
    SingleInstance *instance() const { return m_instance; }
    bool hasTray() const { return m_trayShown; }

    // Watch the relay at `relay` (its admin API, with `token`) instead of the one running here:
    // hosts, request log and timeline come from it. runHere() goes back.
    void watchRemote(const QUrl &relay, const QString &token);
    void runHere();
    RemoteRelayFeed *remote() const { return m_remote.get(); }

    void activate();
    void toggleWindow();
    void openSettings();
    // The hosts editor on the relay's config file, at host; a save is applied by a config reload.
    // Null (and says why) when this session has no config file (--upstream, the demo).
    HostsEditorDialog *openHostsEditor(const QString &host, QWidget *parent = nullptr);
    void quit();

    static QString noTrayMessage();

Q_SIGNALS:
    void activated();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void bindService(switchyard::RelayService *service);
    void showTrayOrFallBack();
    void fallBackToWindow();
    void applyRelayChoice();   // the settings' "run here" or "watch URL"
    void replaceRemoteHistory();   // the watched relay's history started again (a new database)
    void hideReplacedNotice();

    const Clock &m_clock;
    RelayRunner *m_runner;
    HistoryStore *m_history;
    AppSettings *m_settings;
    ConfigReloader *m_reloader;
    Options m_options;
    HostTableModel *m_hosts;
    InFlightCounter *m_inFlight;
    std::unique_ptr<MainWindow> m_window;
    std::unique_ptr<TrayController> m_tray;
    std::unique_ptr<Autostart> m_autostart;
    // While watching a relay elsewhere: its history, copied into a store of its own.
    std::unique_ptr<QTemporaryDir> m_remoteDir;
    std::unique_ptr<HistoryStore> m_remoteHistory;
    std::unique_ptr<RemoteRelayFeed> m_remote;
    int m_remoteHistories = 0;   // histories the watched relay started again with
    QString m_replacedNotice;    // what the notice bar says about that, while it may
    SingleInstance *m_instance = nullptr;
    bool m_trayShown = false;
    bool m_quitting = false;
    QTimer m_trayWait;
    QPointer<HostsEditorDialog> m_hostsEditor;
    std::chrono::steady_clock::time_point m_trayWaitStarted;
};

} // namespace switchyard
