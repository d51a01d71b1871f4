#pragma once

#include <QByteArray>
#include <QSettings>
#include <QString>

#include <chrono>
#include <memory>
#include <optional>

namespace switchyard {

// The desktop's own settings (QSettings): where to listen, which config file, where the
// history lives, the early-200 timings, and the window's geometry. Command-line flags win over
// them; they win over the config file. Headless mode does not read them.
class AppSettings final
{
public:
    // SWITCHYARD_SETTINGS_FILE, when set, is an INI file used instead of the user's settings
    // (for tests and screenshot runs).
    static std::unique_ptr<AppSettings> openDefault();
    explicit AppSettings(std::unique_ptr<QSettings> settings);
    ~AppSettings();

    QString listen() const;                   // empty: the config file's, or the default
    void setListen(const QString &listen);
    QString configPath() const;               // empty: none (static hosts from the command line)
    void setConfigPath(const QString &path);
    QString dataDir() const;                  // empty: the default
    void setDataDir(const QString &dir);
    std::optional<std::chrono::seconds> early200After() const;   // nullopt: the config's
    void setEarly200After(std::optional<std::chrono::seconds> value);
    std::optional<std::chrono::seconds> commentEvery() const;
    void setCommentEvery(std::optional<std::chrono::seconds> value);

    // "Watch the relay at URL" instead of running one here: the URL (empty: run it here) and the
    // relay's admin token (empty: none; the relay then answers only its own machine). The token
    // is not in the settings file: it is kept in a file of its own, 0600 (SecretFile), next to
    // it ("watch-token"), which the settings name (watch/tokenFile; point it elsewhere by hand
    // to keep the token in a file of your choice). An empty token forgets it (and removes
    // its own file, never one named by hand).
    QString watchUrl() const;
    void setWatchUrl(const QString &url);
    QString watchToken() const;
    bool setWatchToken(const QString &token, QString *error = nullptr);
    QString watchTokenFile() const;   // empty: no token

    QByteArray windowGeometry() const;
    void setWindowGeometry(const QByteArray &geometry);
    QByteArray windowState() const;
    void setWindowState(const QByteArray &state);
    bool trayHintShown() const;
    void setTrayHintShown(bool shown);

    void sync();
    QString fileName() const;

private:
    std::optional<std::chrono::seconds> seconds(const QString &key) const;
    void setSeconds(const QString &key, std::optional<std::chrono::seconds> value);

    std::unique_ptr<QSettings> m_settings;
};

} // namespace switchyard
