#pragma once

#include "app/relayfrontend.h"

#include <QObject>
#include <QUrl>

#include <functional>
#include <memory>

namespace switchyard {

struct AppOptions;
class DemoFleet;
class DesktopApp;
class SingleInstance;

// The desktop's part of a run: window, tray or a scripted run when there is a display, the demo
// fleet, and the single-instance hand-over. The switchyard executable runs it with the window;
// switchyard-screenshots with a script (the screenshot runner) instead of the window.
class DesktopFrontend final : public RelayFrontend
{
public:
    // What a scripted run does once the desktop is up, instead of showing it: it gets the desktop
    // and the relay's endpoint, and what it returns lives until the event loop ends.
    using Script = std::function<std::unique_ptr<QObject>(DesktopApp *desktop, const QUrl &endpoint)>;

    DesktopFrontend(const AppOptions &options, bool gui, AppSettings *settings, Script script = {});
    ~DesktopFrontend() override;

    bool handOverToRunning(QTextStream &err) override;
    bool startDemo(QStringList *upstreams, QString *error) override;
    void addDemoEngines(Config &config) override;
    RelayService::DriverFactory demoDrivers(const Config &config) override;
    ConfigResult fixConfig(const ConfigResult &failed) override;
    bool welcomesFirstRun() const override;
    bool demoChosen() const override { return m_demoChosen; }
    void startFailed(const QString &error) override;
    void relayStarted(const RunningRelay &relay) override;
    void relayEnded() override;

private:
    // A window for the user: not headless, and no script drives it.
    bool interactive() const { return m_gui && !m_script; }

    const AppOptions &m_options;
    const bool m_gui;
    const Script m_script;
    AppSettings *m_settings;
    QString m_instanceName;
    std::unique_ptr<DemoFleet> m_demo;
    QStringList m_demoUpstreams;
    bool m_demoChosen = false;
    std::unique_ptr<SingleInstance> m_windowless;
    std::unique_ptr<DesktopApp> m_desktop;
    std::unique_ptr<QObject> m_scripted;
};

} // namespace switchyard
