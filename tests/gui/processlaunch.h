#pragma once

// A real `switchyard` process for the desktop tests that drive the executable, and an Xvfb of
// the test's own for the ones that need a display.
#include <QDir>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

namespace switchyard::test {

inline QString switchyardBinary()
{
    return qEnvironmentVariable("SWITCHYARD_BIN_DIR") + QStringLiteral("/switchyard");
}

// One switchyard process; its output is collected as it comes.
struct Launch
{
    QProcess process;
    QByteArray out;
    QByteArray err;

    void start(const QProcessEnvironment &env, const QStringList &arguments)
    {
        process.setProcessEnvironment(env);
        QObject::connect(&process, &QProcess::readyReadStandardOutput, &process, [this] { out += process.readAllStandardOutput(); });
        QObject::connect(&process, &QProcess::readyReadStandardError, &process, [this] { err += process.readAllStandardError(); });
        process.start(switchyardBinary(), arguments);
    }
    QString said() const
    {
        return QStringLiteral("stdout:\n%1\nstderr:\n%2").arg(QString::fromUtf8(out), QString::fromUtf8(err));
    }
    bool exited() const { return process.state() == QProcess::NotRunning; }
    void stop()
    {
        if (exited())
            return;
        process.terminate();   // SIGTERM: the relay stops gracefully
        if (!process.waitForFinished(5000)) {
            process.kill();
            process.waitForFinished(3000);
        }
    }
    ~Launch() { stop(); }
};

// Folders of the test's own (home, settings, runtime, data) under dir.
inline bool makeIsolatedFolders(const QTemporaryDir &dir)
{
    for (const char *sub : {"home", "config", "data", "cache", "run"}) {
        if (!QDir(dir.path()).mkpath(QString::fromLatin1(sub)))
            return false;
    }
    return ::chmod(QFile::encodeName(dir.filePath(QStringLiteral("run"))).constData(), 0700) == 0;
}

// An environment in those folders, offscreen, with no display.
inline QProcessEnvironment isolatedEnvironment(const QTemporaryDir &dir)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("HOME"), dir.filePath(QStringLiteral("home")));
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral("config")));
    env.insert(QStringLiteral("XDG_DATA_HOME"), dir.filePath(QStringLiteral("data")));
    env.insert(QStringLiteral("XDG_CACHE_HOME"), dir.filePath(QStringLiteral("cache")));
    env.insert(QStringLiteral("XDG_RUNTIME_DIR"), dir.filePath(QStringLiteral("run")));
    env.insert(QStringLiteral("SWITCHYARD_SETTINGS_FILE"), dir.filePath(QStringLiteral("settings.ini")));
    env.insert(QStringLiteral("USER"), QStringLiteral("sytest"));
    for (const QString &name : {QStringLiteral("DISPLAY"), QStringLiteral("WAYLAND_DISPLAY"),
                                QStringLiteral("SWITCHYARD_INSTANCE_NAME"), QStringLiteral("TMPDIR")})
        env.remove(name);
    return env;
}

// Starts Xvfb on a free display; *display is its name (":N").
inline bool startXvfb(QProcess &xvfb, QString *display)
{
    // -displayfd: Xvfb picks a free display and writes its number when it is ready.
    xvfb.start(QStringLiteral("Xvfb"), {QStringLiteral("-displayfd"), QStringLiteral("1"), QStringLiteral("-screen"),
                                        QStringLiteral("0"), QStringLiteral("1024x768x24"), QStringLiteral("-nolisten"),
                                        QStringLiteral("tcp")});
    if (!xvfb.waitForStarted(5000))
        return false;
    if (!QTest::qWaitFor([&] { return xvfb.canReadLine() || xvfb.state() == QProcess::NotRunning; }, 10000))
        return false;
    const QByteArray number = xvfb.readLine().trimmed();
    if (number.isEmpty())
        return false;
    *display = QStringLiteral(":") + QString::fromLatin1(number);
    return true;
}

// The names of the windows on an X display (xwininfo, from x11-utils).
inline QString windowNames(const QString &display)
{
    QProcess xwininfo;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("DISPLAY"), display);
    xwininfo.setProcessEnvironment(env);
    xwininfo.start(QStringLiteral("xwininfo"), {QStringLiteral("-root"), QStringLiteral("-tree")});
    if (!xwininfo.waitForFinished(5000))
        return {};
    return QString::fromUtf8(xwininfo.readAllStandardOutput());
}

} // namespace switchyard::test
