#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QRandomGenerator>
#include <QStringList>
#include <QTimer>
#include <QUrl>

#include <functional>

namespace switchyard {

class DesktopApp;
class TrafficGenerator;

// `switchyard --demo --screenshots DIR` (hidden): drives the demo fleet with a scripted mix of
// client traffic (streams, loads, an eviction, unknown models), then saves the window and its
// parts as PNGs with QWidget::grab(), and quits. scripts/screenshots.sh runs it offscreen.
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
    bool save(class QWidget *widget, const QString &name);
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
};

} // namespace switchyard
