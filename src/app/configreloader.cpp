#include "app/configreloader.h"

#include "app/consolejournal.h"
#include "app/relayrunner.h"
#include "app/startupconfig.h"

#include <QFile>
#include <QFileInfo>

namespace switchyard {

using namespace Qt::StringLiterals;

ConfigReloader::ConfigReloader(AppOptions options, const AppSettings *settings, RelayRunner *runner,
                               ConsoleJournal *journal, QObject *parent)
    : QObject(parent)
    , m_options(std::move(options))
    , m_settings(settings)
    , m_runner(runner)
    , m_journal(journal)
{
    m_settle.setSingleShot(true);
    m_settle.setInterval(SettleTime);
    connect(&m_settle, &QTimer::timeout, this, [this] {
        rewatch();   // an editor that saves by rename leaves the watcher on the old file
        QFile file(m_watchedFile);
        if (!m_applied.isNull() && file.open(QIODevice::ReadOnly) && file.readAll() == m_applied)
            return;
        reload();
    });
    connect(&m_watcher, &QFileSystemWatcher::fileChanged, this, [this] { m_settle.start(); });
    connect(&m_watcher, &QFileSystemWatcher::directoryChanged, this, [this] {
        if (!m_watchedFile.isEmpty() && QFileInfo::exists(m_watchedFile) && !m_watcher.files().contains(m_watchedFile))
            m_settle.start();
    });
    rewatch();
}

void ConfigReloader::rewatch()
{
    const QString path = StartupConfig::configPath(m_options, m_settings);
    const QString absolute = path.isEmpty() ? QString() : QFileInfo(path).absoluteFilePath();
    if (!m_watcher.files().isEmpty())
        m_watcher.removePaths(m_watcher.files());
    if (!m_watcher.directories().isEmpty())
        m_watcher.removePaths(m_watcher.directories());
    m_watchedFile = absolute;
    if (absolute.isEmpty())
        return;
    if (QFileInfo::exists(absolute))
        m_watcher.addPath(absolute);
    m_watcher.addPath(QFileInfo(absolute).absolutePath());
}

bool ConfigReloader::reload()
{
    // Settings that watch a relay elsewhere: none runs here, and a config change starts none.
    const QUrl watched = StartupConfig::watchedRelay(m_options, m_settings);
    if (!watched.isEmpty()) {
        if (m_runner->service()) {
            m_runner->retire();
            if (m_journal)
                m_journal->line(tr("switchyard: watching the relay at %1; the relay here stops once its requests are done")
                                    .arg(watched.toString()));
        }
        return true;
    }
    ConfigResult result = StartupConfig::resolve(m_options, m_settings, m_demoUpstreams);
    if (result.ok() && m_addDemoEngines)
        m_addDemoEngines(*result.config);
    const QString source = m_watchedFile.isEmpty() ? tr("the command line and settings") : m_watchedFile;
    if (!result.ok()) {
        QStringList errors;
        for (const ConfigError &e : result.errors)
            errors.append(e.toString());
        if (errors.isEmpty())
            errors.append(tr("the config could not be read"));
        if (m_journal)
            m_journal->line(tr("switchyard: config not reloaded, the running one stays: %1").arg(errors.join(u"; "_s)));
        emit reloadFailed(errors);
        return false;
    }
    QString error;
    if (!m_runner->replace(*result.config, &error)) {
        if (m_journal)
            m_journal->line(tr("switchyard: config not reloaded, the running one stays: %1").arg(error));
        emit reloadFailed(error.split(u'\n'));
        return false;
    }
    QFile file(m_watchedFile);
    m_applied = !m_watchedFile.isEmpty() && file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
    if (m_journal)
        m_journal->line(tr("switchyard: config reloaded from %1").arg(source));
    emit reloaded(source);
    return true;
}

} // namespace switchyard
