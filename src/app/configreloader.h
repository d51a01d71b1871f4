#pragma once

#include "app/commandline.h"

#include <QFileSystemWatcher>
#include <QObject>
#include <QStringList>
#include <QTimer>

#include <functional>

namespace switchyard {

class AppSettings;
struct Config;
class ConsoleJournal;
class RelayRunner;

// Applies a changed config without a restart: on request, or when the config file changes on
// disk. The new config is read and validated in full first; only a valid one replaces the
// running relay (see RelayRunner::replace). A broken one changes nothing, and says why.
class ConfigReloader final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ConfigReloader)

public:
    static constexpr std::chrono::milliseconds SettleTime{400};   // editors write in steps

    // settings and journal may be null; everything must outlive the reloader.
    ConfigReloader(AppOptions options, const AppSettings *settings, RelayRunner *runner,
                   ConsoleJournal *journal, QObject *parent = nullptr);

    // The demo fleet: its flags, and what it adds to a config made from them.
    void setDemo(const QStringList &upstreams, std::function<void(Config &)> addEngines)
    {
        m_demoUpstreams = upstreams;
        m_addDemoEngines = std::move(addEngines);
    }
    // The file to watch follows the options and settings; call after changing them.
    void rewatch();
    QString watchedFile() const { return m_watchedFile; }

    // True when the new config runs now. Errors go to reloadFailed as well. While the settings
    // watch a relay elsewhere (StartupConfig::watchedRelay) it runs none: one running stops.
    bool reload();

Q_SIGNALS:
    void reloaded(const QString &source);
    // Every problem, one per line, as check-config prints them.
    void reloadFailed(const QStringList &errors);

private:
    AppOptions m_options;
    const AppSettings *m_settings;
    RelayRunner *m_runner;
    ConsoleJournal *m_journal;
    QStringList m_demoUpstreams;
    std::function<void(Config &)> m_addDemoEngines;
    QFileSystemWatcher m_watcher;
    QString m_watchedFile;
    QTimer m_settle;
    // The watched file as last applied: a change on disk that leaves it so (a save already
    // reloaded on request, a touch) does not replace the relay again.
    QByteArray m_applied;
};

} // namespace switchyard
