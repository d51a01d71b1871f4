// Watching a relay elsewhere starts none here (issue 22): a window whose settings say "watch the
// relay at URL" takes no port and starts no engine, neither at launch (the real executable under
// Xvfb) nor when the settings change while it runs; and its admin token is kept out of the
// settings file (a file of its own, 0600) yet survives a restart.
#include "app/appsettings.h"
#include "app/configreloader.h"
#include "app/relayrunner.h"
#include "app/relayservice.h"
#include "app/startupconfig.h"
#include "guifleet.h"
#include "laterport.h"
#include "processlaunch.h"
#include "relay/relay.h"
#include "remoterelayfixture.h"

#include <QFile>
#include <QScopeGuard>
#include <QSettings>
#include <QSignalSpy>
#include <QTcpSocket>

#include <sys/stat.h>

using namespace switchyard;
using namespace switchyard::test;
using namespace Qt::StringLiterals;

namespace {

constexpr int WaitMs = 10000;
constexpr int StartTimeoutMs = 20000;

// Whether something accepts a connection on this loopback port now.
bool listening(quint16 port)
{
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, port);
    return socket.waitForConnected(2000);
}

// A config the relay here would run: host "here" (a fake router) on `port`.
QString writeConfig(const QTemporaryDir &dir, quint16 port, const QUrl &router)
{
    const QString path = dir.filePath(u"switchyard.json"_s);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return {};
    f.write(R"({"listen": "127.0.0.1:)" + QByteArray::number(port) + R"(", "hosts": {"here": {"driver": "static", )"
            R"("engines": {"main": {"url": ")" + router.toString().toUtf8() + R"("}}}}})");
    return path;
}

int fileMode(const QString &path)
{
    struct stat st {};
    return ::stat(QFile::encodeName(path).constData(), &st) == 0 ? int(st.st_mode & 0777) : -1;
}

} // namespace

class TstRemoteWatchStart : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void tokenIsKeptOutOfTheSettings();
    void launchWatchingStartsNoRelay();
    void switchingToWatchStopsTheRelayHere();
};

void TstRemoteWatchStart::tokenIsKeptOutOfTheSettings()
{
    QTemporaryDir dir;
    const QString ini = dir.filePath(u"settings.ini"_s);
    {
        AppSettings settings(std::make_unique<QSettings>(ini, QSettings::IniFormat));
        settings.setWatchUrl(u"http://gpu-server.lan:18766"_s);
        QString error;
        QVERIFY2(settings.setWatchToken(RemoteToken, &error), qPrintable(error));
        settings.sync();
        QCOMPARE(settings.watchToken(), RemoteToken);
        QCOMPARE(settings.watchTokenFile(), dir.filePath(u"watch-token"_s));
    }
    QFile file(ini);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray text = file.readAll();
    QVERIFY2(!text.contains(RemoteToken.toUtf8()), text.constData());
    QVERIFY(text.contains("gpu-server.lan"));
    QCOMPARE(fileMode(dir.filePath(u"watch-token"_s)), 0600);

    // A restart: a new settings object on the same file reads it back.
    {
        AppSettings settings(std::make_unique<QSettings>(ini, QSettings::IniFormat));
        QCOMPARE(settings.watchToken(), RemoteToken);
        // "Run the relay here" forgets it, file and all.
        QVERIFY(settings.setWatchToken(QString()));
        settings.sync();
        QCOMPARE(settings.watchToken(), QString());
    }
    QVERIFY(!QFile::exists(dir.filePath(u"watch-token"_s)));

    // A token an older version wrote in clear moves out of the settings file on the next start.
    {
        QSettings old(ini, QSettings::IniFormat);
        old.setValue(u"watch/token"_s, u"old-clear-t0ken"_s);
    }
    {
        AppSettings settings(std::make_unique<QSettings>(ini, QSettings::IniFormat));
        QCOMPARE(settings.watchToken(), u"old-clear-t0ken"_s);
        settings.sync();
    }
    QFile again(ini);
    QVERIFY(again.open(QIODevice::ReadOnly));
    QVERIFY(!again.readAll().contains("old-clear-t0ken"));
    QCOMPARE(fileMode(dir.filePath(u"watch-token"_s)), 0600);
}

void TstRemoteWatchStart::launchWatchingStartsNoRelay()
{
    QVERIFY2(!QStandardPaths::findExecutable(u"Xvfb"_s).isEmpty(), "Xvfb is not installed (apt-get install xvfb)");
    QVERIFY(QFile::exists(switchyardBinary()));
    RemoteRelay remote;
    QVERIFY(remote.start());
    fake::FakeLlamaServer here(GuiFleet::defaultH1());   // the config's host: nobody may ask it anything
    QVERIFY(here.listen());

    QTemporaryDir dir;
    QVERIFY(makeIsolatedFolders(dir));
    const quint16 port = portForLater();
    const QString config = writeConfig(dir, port, here.baseUrl());
    QVERIFY(!config.isEmpty());
    {
        // Saved by a window before this launch (Settings, "Watch the relay at").
        AppSettings settings(std::make_unique<QSettings>(dir.filePath(u"settings.ini"_s), QSettings::IniFormat));
        settings.setConfigPath(config);
        settings.setWatchUrl(remote.relay->endpoint().toString());
        QVERIFY(settings.setWatchToken(RemoteToken));
        settings.sync();
    }

    QProcess xvfb;
    const auto stopXvfb = qScopeGuard([&xvfb] {
        xvfb.terminate();
        xvfb.waitForFinished(3000);
    });
    QString display;
    QVERIFY(startXvfb(xvfb, &display));
    QProcessEnvironment env = isolatedEnvironment(dir);
    env.insert(u"QT_QPA_PLATFORM"_s, u"xcb"_s);
    env.insert(u"DISPLAY"_s, display);
    env.insert(u"SWITCHYARD_INSTANCE_NAME"_s, dir.filePath(u"run/switchyard-test"_s));

    // The remote sees the window's polls, with the token read back from its file.
    bool watched = false;
    connect(remote.relay->relay(), &Relay::requestFinished, this, [&watched](const RequestRecord &r) {
        watched = watched || (r.path == "/admin/hosts"_L1 && r.status == 200);
    });
    Launch launch;
    launch.start(env, {});
    QTRY_VERIFY2_WITH_TIMEOUT(launch.exited() || watched, qPrintable(launch.said()), StartTimeoutMs);
    QVERIFY2(!launch.exited(), qPrintable(launch.said()));
    QTRY_VERIFY2_WITH_TIMEOUT(launch.out.contains("watching the relay at"), qPrintable(launch.said()), WaitMs);

    // ...and nothing runs here: no port, no poll of the config's host, no "listening on".
    QVERIFY2(!listening(port), qPrintable(launch.said()));
    QVERIFY2(here.received().isEmpty(), here.received().isEmpty() ? "" : here.received().first().path.constData());
    QVERIFY2(!launch.out.contains("listening on"), qPrintable(launch.said()));

    launch.stop();
    QCOMPARE(launch.process.exitStatus(), QProcess::NormalExit);
}

void TstRemoteWatchStart::switchingToWatchStopsTheRelayHere()
{
    RemoteRelay remote;
    QVERIFY(remote.start());
    fake::FakeLlamaServer here(GuiFleet::defaultH1());
    QVERIFY(here.listen());
    QTemporaryDir dir;
    const quint16 port = portForLater();
    AppSettings settings(std::make_unique<QSettings>(dir.filePath(u"settings.ini"_s), QSettings::IniFormat));
    settings.setConfigPath(writeConfig(dir, port, here.baseUrl()));
    AppOptions options;
    SystemClock clock;
    RelayRunner runner(nullptr, nullptr, &clock);
    runner.setDriverFactory(&RelayService::standardDrivers);
    ConfigReloader reloader(options, &settings, &runner, nullptr);
    QVERIFY(reloader.reload());   // runs the relay here
    QVERIFY(runner.service());
    QVERIFY(listening(port));

    // Settings now say "watch the relay at": the relay here stops, and a reload starts none.
    QSignalSpy changed(&runner, &RelayRunner::serviceChanged);
    settings.setWatchUrl(remote.relay->endpoint().toString());
    QVERIFY(reloader.reload());
    QCOMPARE(runner.service(), nullptr);
    QCOMPARE(changed.size(), 1);
    QTRY_VERIFY_WITH_TIMEOUT(!listening(port), WaitMs);
    QVERIFY(reloader.reload());
    QCOMPARE(runner.service(), nullptr);

    // A command line that names a relay of its own wins over the settings.
    options.listen = u"127.0.0.1:0"_s;
    QVERIFY(StartupConfig::watchedRelay(options, &settings).isEmpty());
    options.listen.clear();
    QCOMPARE(StartupConfig::watchedRelay(options, &settings), remote.relay->endpoint());

    // Back to "run the relay here".
    settings.setWatchUrl(QString());
    QVERIFY(reloader.reload());
    QVERIFY(runner.service());
    QVERIFY(listening(port));
    QSignalSpy stopped(&runner, &RelayRunner::stopped);
    runner.shutdown(std::chrono::milliseconds(0));
    QVERIFY(stopped.wait(WaitMs));
}

QTEST_MAIN(TstRemoteWatchStart)
#include "tst_remotewatchstart.moc"
