#include "desktop/desktopapp.h"

#include "app/appsettings.h"
#include "app/configreloader.h"
#include "app/relayrunner.h"
#include "app/relayservice.h"
#include "dialogs/hostseditordialog.h"
#include "app/remoterelayfeed.h"
#include "store/historystore.h"
#include "dialogs/settingsdialog.h"
#include "models/hosttablemodel.h"
#include "models/inflightcounter.h"
#include "tray/autostart.h"
#include "tray/singleinstance.h"
#include "tray/traycontroller.h"
#include "window/mainwindow.h"
#include "window/noticebar.h"

#include <QApplication>
#include <QFile>
#include <QMessageBox>
#include <QTextStream>

#include <cstdio>

namespace switchyard {

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

DesktopApp::DesktopApp(const Clock &clock, RelayRunner *runner, HistoryStore *history, AppSettings *settings,
                       ConfigReloader *reloader, Options options, QObject *parent)
    : QObject(parent)
    , m_clock(clock)
    , m_runner(runner)
    , m_history(history)
    , m_settings(settings)
    , m_reloader(reloader)
    , m_options(std::move(options))
    , m_hosts(new HostTableModel(this))
    , m_inFlight(new InFlightCounter(this))
    , m_autostart(std::make_unique<Autostart>())
{
    m_hosts->setInFlightCounter(m_inFlight);
    connect(runner, &RelayRunner::requestStarted, m_inFlight, &InFlightCounter::started);
    connect(runner, &RelayRunner::requestFinished, m_inFlight, &InFlightCounter::finished);

    m_window = std::make_unique<MainWindow>(clock, m_hosts, m_inFlight, settings);
    m_window->setHistory(history);
    connect(m_window.get(), &MainWindow::settingsRequested, this, &DesktopApp::openSettings);
    connect(m_window.get(), &MainWindow::quitRequested, this, &DesktopApp::quit);
    connect(m_window.get(), &MainWindow::hostsEditorRequested, this, [this](const QString &host) { openHostsEditor(host); });
    connect(m_window.get(), &MainWindow::closed, this, [this] {
        if (!m_trayShown) {
            quit();   // no tray: the window is the app
            return;
        }
        if (m_settings && !m_settings->trayHintShown()) {
            m_tray->showMessage(tr("Switchyard is still relaying"),
                                tr("It keeps running in the tray. Quit it from the tray menu."));
            m_settings->setTrayHintShown(true);
        }
    });

    m_tray = std::make_unique<TrayController>(m_hosts, m_inFlight);
    connect(m_tray.get(), &TrayController::openWindowRequested, this, &DesktopApp::activate);
    connect(m_tray.get(), &TrayController::toggleWindowRequested, this, &DesktopApp::toggleWindow);
    connect(m_tray.get(), &TrayController::settingsRequested, this, &DesktopApp::openSettings);
    connect(m_tray.get(), &TrayController::exportDialogRequested, this, [this] {
        activate();
        m_window->showExportDialog();
    });
    connect(m_tray.get(), &TrayController::quitRequested, this, &DesktopApp::quit);

    if (reloader) {
        connect(m_window.get(), &MainWindow::reloadRequested, reloader, &ConfigReloader::reload);
        connect(reloader, &ConfigReloader::reloadFailed, this, [this](const QStringList &errors) {
            m_window->notice()->showMessage(NoticeBar::Kind::Error,
                                            tr("The config was not reloaded; the relay goes on with the one it had.")
                                                + u"\n"_s + errors.join(u'\n'));
            m_tray->showMessage(tr("Config not reloaded"), errors.value(0), QSystemTrayIcon::Warning);
        });
        connect(reloader, &ConfigReloader::reloaded, this, [this](const QString &source) {
            if (m_window->notice()->kind() == NoticeBar::Kind::Error)
                m_window->notice()->hide();
            m_window->showStatusMessage(tr("Config reloaded from %1").arg(source));
        });
    }
    connect(runner, &RelayRunner::serviceChanged, this, &DesktopApp::bindService);
    if (runner->service())
        bindService(runner->service());

    // Logout: the session manager sends the application a Quit event, which Qt turns into closing
    // every window; the window hides to the tray instead, and the quit would be refused. It quits
    // the relay here, as the tray's Quit does.
    qApp->installEventFilter(this);

    m_trayWait.setInterval(250ms);
    connect(&m_trayWait, &QTimer::timeout, this, [this] {
        if (TrayController::isAvailable()) {
            m_trayWait.stop();
            showTrayOrFallBack();
        } else if (std::chrono::steady_clock::now() - m_trayWaitStarted >= m_options.trayWait) {
            m_trayWait.stop();
            fallBackToWindow();
        }
    });
}

DesktopApp::~DesktopApp()
{
    // The window and the tray use the models; they go first.
    m_tray.reset();
    m_window.reset();
    m_remote.reset();
}

void DesktopApp::watchRemote(const QUrl &relay, const QString &token)
{
    hideReplacedNotice();
    m_remote.reset();
    m_remoteHistory.reset();
    m_remoteDir = std::make_unique<QTemporaryDir>();
    m_remoteHistory = std::make_unique<HistoryStore>(m_remoteDir->filePath(u"watched.sqlite"_s), m_clock);
    m_remote = std::make_unique<RemoteRelayFeed>(relay, token, m_remoteHistory.get());
    m_hosts->setRemote(m_remote.get());
    m_window->setRemote(m_remote.get());
    m_window->setHistory(m_remoteHistory.get());
    // The tray copies and exports for the watched relay: its client URL, its models.
    m_tray->setEndpoint(m_remote->baseUrl(), QString());
    connect(m_remote.get(), &RemoteRelayFeed::historyReplaced, this, &DesktopApp::replaceRemoteHistory);
    connect(m_remote.get(), &RemoteRelayFeed::modelsChanged, m_tray.get(),
            [tray = m_tray.get(), feed = m_remote.get()] { tray->setModelList(feed->modelsJson()); });
    m_remote->start();
}

void DesktopApp::replaceRemoteHistory()
{
    // The watched relay restarted on a new history database: the window shows that history
    // alone, copied from its beginning into a store of its own; the old copies go with theirs.
    auto fresh = std::make_unique<HistoryStore>(m_remoteDir->filePath(u"watched-%1.sqlite"_s.arg(++m_remoteHistories)), m_clock);
    m_remote->setStore(fresh.get());
    m_window->setHistory(fresh.get());
    const QString old = m_remoteHistory->path();
    m_remoteHistory = std::move(fresh);
    for (const QString &suffix : {QString(), u"-wal"_s, u"-shm"_s})
        QFile::remove(old + suffix);
    m_replacedNotice = tr("The relay at %1 started again with a new history: the requests and switches shown before "
                          "are no longer in it. The window shows its new history from here on.")
                           .arg(m_remote->baseUrl().toString());
    m_window->notice()->showMessage(NoticeBar::Kind::Info, m_replacedNotice);
}

void DesktopApp::hideReplacedNotice()
{
    // It is about the relay watched until now.
    if (!m_replacedNotice.isEmpty() && m_window->notice()->text() == m_replacedNotice)
        m_window->notice()->hide();
    m_replacedNotice.clear();
}

void DesktopApp::runHere()
{
    if (!m_remote)
        return;
    hideReplacedNotice();
    m_window->setHistory(m_history);
    const std::unique_ptr<RemoteRelayFeed> watched = std::move(m_remote);
    bindService(m_runner->service());   // also leaves the watched relay
    m_remoteHistory.reset();
    m_remoteDir.reset();
}

void DesktopApp::applyRelayChoice()
{
    if (!m_settings)
        return;
    const QUrl url = m_options.relayFromCommandLine ? QUrl() : QUrl(m_settings->watchUrl().trimmed());
    if (url.isValid() && !url.isEmpty()) {
        if (!m_remote || m_remote->relay() != url)
            watchRemote(url, m_settings->watchToken());
    } else {
        runHere();
    }
}

void DesktopApp::bindService(RelayService *service)
{
    if (m_remote)
        return;   // the relay here changed while another one is watched: shown when back
    m_hosts->setService(service);
    m_window->setService(service);
    m_tray->setModelList({});   // the relay here: the export asks it
    if (service)
        m_tray->setEndpoint(service->endpoint(), service->config().access.clientKeys.value(0).key);
}

QString DesktopApp::noTrayMessage()
{
    return tr("No system tray was found, so Switchyard runs in this window: closing it stops the relay.");
}

void DesktopApp::start()
{
    applyRelayChoice();
    if (TrayController::isAvailable()) {
        showTrayOrFallBack();
        return;
    }
    if (!m_options.trayOnly) {
        // A plain launch: the window is the app (closing it quits, gracefully).
        QApplication::setQuitOnLastWindowClosed(false);
        m_window->show();
        return;
    }
    if (m_options.trayWait <= 0ms) {
        fallBackToWindow();
        return;
    }
    m_trayWaitStarted = std::chrono::steady_clock::now();
    m_trayWait.start();
}

void DesktopApp::showTrayOrFallBack()
{
    m_trayShown = m_tray->show();
    if (!m_trayShown) {
        fallBackToWindow();
        return;
    }
    QApplication::setQuitOnLastWindowClosed(false);
    if (!m_options.trayOnly)
        m_window->show();
}

void DesktopApp::fallBackToWindow()
{
    QTextStream(stderr) << "switchyard: " << noTrayMessage() << Qt::endl;
    QApplication::setQuitOnLastWindowClosed(false);   // closing the window quits, gracefully
    m_window->notice()->showMessage(NoticeBar::Kind::Warning, noTrayMessage());
    m_window->show();
}

bool DesktopApp::listenForActivation(const QString &name, QString *error)
{
    if (name.isEmpty())
        return true;   // nothing to share (port 0)
    m_instance = new SingleInstance(name, this);
    connect(m_instance, &SingleInstance::activationRequested, this, [this] {
        activate();
        emit activated();
    });
    return m_instance->listen(error);
}

void DesktopApp::activate()
{
    m_window->activate();
}

void DesktopApp::toggleWindow()
{
    if (m_window->isVisible() && !m_window->isMinimized())
        m_window->hide();
    else
        activate();
}

void DesktopApp::openSettings()
{
    if (!m_settings) {
        m_window->showStatusMessage(tr("Settings are not available in this mode"));
        return;
    }
    activate();
    SettingsDialog dialog(m_settings, m_autostart.get(), m_options.overrides, m_window.get());
    dialog.setRunning(m_runner->service() ? m_runner->service()->endpoint().authority() : QString(),
                      m_options.overrides.contains(u"--demo"_s));
    connect(&dialog, &SettingsDialog::applied, this, [this] {
        applyRelayChoice();
        if (!m_reloader)
            return;
        m_reloader->rewatch();
        m_reloader->reload();
    });
    connect(&dialog, &SettingsDialog::hostsEditorRequested, this, [this, &dialog] { openHostsEditor({}, &dialog); });
    dialog.exec();
}

HostsEditorDialog *DesktopApp::openHostsEditor(const QString &host, QWidget *parent)
{
    const QString path = m_reloader ? m_reloader->watchedFile() : QString();
    if (path.isEmpty()) {
        const QString why = tr("This session has no config file (its hosts come from the command line or the demo): "
                               "choose one in Settings to edit hosts.");
        m_window->showStatusMessage(why);
        if (parent)
            QMessageBox::information(parent, tr("Edit Hosts"), why);
        return nullptr;
    }
    if (m_hostsEditor && m_hostsEditor->configPath() == path && !parent) {
        if (!host.isEmpty())
            m_hostsEditor->select(host);
        m_hostsEditor->raise();
        m_hostsEditor->activateWindow();
        return m_hostsEditor;
    }
    if (m_hostsEditor)
        m_hostsEditor->close();
    auto *editor = new HostsEditorDialog(path, parent ? parent : m_window.get());
    editor->setAttribute(Qt::WA_DeleteOnClose);
    // From the (modal) settings dialog: modal to it, else it could not be used.
    editor->setWindowModality(parent ? Qt::WindowModal : Qt::NonModal);
    if (!host.isEmpty())
        editor->select(host);
    connect(editor, &HostsEditorDialog::saved, this, [this] {
        m_reloader->rewatch();
        m_reloader->reload();
    });
    m_hostsEditor = editor;
    editor->show();
    return editor;
}

bool DesktopApp::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == qApp && event->type() == QEvent::Quit) {
        quit();
        return true;
    }
    return QObject::eventFilter(watched, event);
}

void DesktopApp::quit()
{
    if (m_quitting)
        return;
    m_quitting = true;
    // Gone from the screen at once; running streams get their grace period (main quits the
    // event loop when the runner says it has stopped).
    m_window->hide();
    m_tray->hide();
    connect(m_runner, &RelayRunner::stopped, qApp, &QCoreApplication::quit, Qt::SingleShotConnection);
    m_runner->shutdown();
}

} // namespace switchyard
