#include "app/appsettings.h"

#include "app/secretfile.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace switchyard {

using namespace Qt::StringLiterals;

std::unique_ptr<AppSettings> AppSettings::openDefault()
{
    const QString file = qEnvironmentVariable("SWITCHYARD_SETTINGS_FILE");
    if (!file.isEmpty())
        return std::make_unique<AppSettings>(std::make_unique<QSettings>(file, QSettings::IniFormat));
    return std::make_unique<AppSettings>(std::make_unique<QSettings>(u"switchyard"_s, u"switchyard"_s));
}

AppSettings::AppSettings(std::unique_ptr<QSettings> settings)
    : m_settings(std::move(settings))
{
    // A token an older version kept here in clear moves to its own file.
    const QString clear = m_settings->value(u"watch/token"_s).toString();
    if (!clear.isEmpty())
        setWatchToken(clear);
}

AppSettings::~AppSettings() = default;

QString AppSettings::listen() const { return m_settings->value(u"relay/listen"_s).toString(); }
void AppSettings::setListen(const QString &listen) { m_settings->setValue(u"relay/listen"_s, listen); }
QString AppSettings::watchUrl() const { return m_settings->value(u"watch/url"_s).toString(); }
void AppSettings::setWatchUrl(const QString &url) { m_settings->setValue(u"watch/url"_s, url); }
QString AppSettings::watchToken() const { return SecretFile::read(watchTokenFile()); }
QString AppSettings::watchTokenFile() const { return m_settings->value(u"watch/tokenFile"_s).toString(); }

bool AppSettings::setWatchToken(const QString &token, QString *error)
{
    m_settings->remove(u"watch/token"_s);
    const QString own = QDir(QFileInfo(m_settings->fileName()).absolutePath()).filePath(u"watch-token"_s);
    QString path = watchTokenFile();
    if (token.isEmpty()) {
        if (path == own)
            QFile::remove(path);   // ours; a file the user named is theirs to keep
        m_settings->remove(u"watch/tokenFile"_s);
        return true;
    }
    if (path.isEmpty())
        path = own;
    if (!SecretFile::write(path, token, error))
        return false;
    m_settings->setValue(u"watch/tokenFile"_s, path);
    return true;
}
QString AppSettings::configPath() const { return m_settings->value(u"relay/config"_s).toString(); }
void AppSettings::setConfigPath(const QString &path) { m_settings->setValue(u"relay/config"_s, path); }
QString AppSettings::dataDir() const { return m_settings->value(u"relay/dataDir"_s).toString(); }
void AppSettings::setDataDir(const QString &dir) { m_settings->setValue(u"relay/dataDir"_s, dir); }

std::optional<std::chrono::seconds> AppSettings::seconds(const QString &key) const
{
    bool ok = false;
    const int value = m_settings->value(key).toInt(&ok);
    if (!ok || value <= 0)
        return std::nullopt;
    return std::chrono::seconds(value);
}

void AppSettings::setSeconds(const QString &key, std::optional<std::chrono::seconds> value)
{
    if (value)
        m_settings->setValue(key, qint64(value->count()));
    else
        m_settings->remove(key);
}

std::optional<std::chrono::seconds> AppSettings::early200After() const { return seconds(u"waiting/early200AfterS"_s); }
void AppSettings::setEarly200After(std::optional<std::chrono::seconds> v) { setSeconds(u"waiting/early200AfterS"_s, v); }
std::optional<std::chrono::seconds> AppSettings::commentEvery() const { return seconds(u"waiting/commentEveryS"_s); }
void AppSettings::setCommentEvery(std::optional<std::chrono::seconds> v) { setSeconds(u"waiting/commentEveryS"_s, v); }

QByteArray AppSettings::windowGeometry() const { return m_settings->value(u"window/geometry"_s).toByteArray(); }
void AppSettings::setWindowGeometry(const QByteArray &g) { m_settings->setValue(u"window/geometry"_s, g); }
QByteArray AppSettings::windowState() const { return m_settings->value(u"window/state"_s).toByteArray(); }
void AppSettings::setWindowState(const QByteArray &s) { m_settings->setValue(u"window/state"_s, s); }
bool AppSettings::trayHintShown() const { return m_settings->value(u"tray/hintShown"_s).toBool(); }
void AppSettings::setTrayHintShown(bool shown) { m_settings->setValue(u"tray/hintShown"_s, shown); }

void AppSettings::sync() { m_settings->sync(); }
QString AppSettings::fileName() const { return m_settings->fileName(); }

} // namespace switchyard
