#pragma once

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QObject>
#include <QRandomGenerator>
#include <QStringList>
#include <QTimer>
#include <QUrl>

#include <functional>
#include <memory>

class QPixmap;
class QWidget;

namespace switchyard {

class DesktopApp;
class TrafficGenerator;

// `switchyard-screenshots --demo --screenshots DIR` (screenshots/main.cpp): drives the demo
// fleet with a scripted mix of client traffic (streams, loads, an eviction, unknown models), then saves the window and its
// parts as PNGs with QWidget::grab(), and quits. scripts/screenshots.sh runs it offscreen.
//
// Besides the window: a host card while its engine switches (grabbed as the switch runs), the
// window at 1000×650 and 1600×1000, the first run's dialogs and the hosts editor (on a config file
// written to SWITCHYARD_SCREENSHOT_CONFIG, else to a folder of its own that is removed), and, when
// SWITCHYARD_SCREENSHOT_WATCH=URL (and _WATCH_TOKEN) name a second relay, the window watching it.
class ScreenshotRunner final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ScreenshotRunner)

public:
    // SWITCHYARD_SCREENSHOT_SECONDS shortens or lengthens the run (default 45).
    ScreenshotRunner(DesktopApp *desktop, const QUrl &endpoint, QString directory, QObject *parent = nullptr);
    ~ScreenshotRunner() override;

    void start();

private:
    struct Step
    {
        double at;   // seconds from start
        std::function<void()> run;
        bool done = false;
    };

    void tick();
    void background();
    void capture();
    void captureFirstRun();
    void captureHostsEditor();
    void captureRemote();
    void finish();
    // While the 3090 switches engines: its card and the timeline, once, a second into the switch.
    void grabSwitchInProgress();
    bool save(const QPixmap &pixmap, const QString &name);
    bool save(QWidget *widget, const QString &name);
    bool saveTrayIcons();

    DesktopApp *m_desktop;
    QUrl m_endpoint;
    QString m_directory;
    double m_duration;
    TrafficGenerator *m_traffic = nullptr;
    QList<Step> m_steps;
    QStringList m_streamAliases;
    QElapsedTimer m_clock;
    QTimer m_ticker;
    double m_nextBackground = 1.0;
    QRandomGenerator m_random{20261024};
    int m_failures = 0;
    bool m_switchSaved = false;
    QString m_configPath;                     // what the dialogs show and the hosts editor reads
    std::unique_ptr<QTemporaryDir> m_scratch; // holds it when the script names none
    QUrl m_watch;                             // a second relay to watch at the end, if any
    QString m_watchToken;
};

} // namespace switchyard
