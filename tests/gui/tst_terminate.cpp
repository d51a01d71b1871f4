// SIGTERM and logout end the process in every state (issue 22, item 21): with the start-up
// dialog open (no config), with the window up, and on the session manager's Quit (logout).
#include "desktop/desktopapp.h"
#include "guifleet.h"
#include "processlaunch.h"
#include "window/mainwindow.h"

#include <QApplication>
#include <QScopeGuard>
#include <QSignalSpy>

using namespace switchyard;
using namespace switchyard::test;
using namespace Qt::StringLiterals;

namespace {

constexpr int StartTimeoutMs = 20000;
constexpr int ExitTimeoutMs = 10000;

} // namespace

class TstTerminate : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void startupDialogEndsOnSigterm();
    void windowEndsOnSigterm();
    void logoutQuitsRelay();

private:
    // An environment of the test's own with an Xvfb display, for a window.
    bool displayEnvironment(QProcess &xvfb, QProcessEnvironment *env);

    std::unique_ptr<QTemporaryDir> m_dir;
};

void TstTerminate::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    QVERIFY(makeIsolatedFolders(*m_dir));
}

bool TstTerminate::displayEnvironment(QProcess &xvfb, QProcessEnvironment *env)
{
    QString display;
    if (!startXvfb(xvfb, &display))
        return false;
    *env = isolatedEnvironment(*m_dir);
    env->insert(u"QT_QPA_PLATFORM"_s, u"xcb"_s);
    env->insert(u"DISPLAY"_s, display);
    env->insert(u"SWITCHYARD_INSTANCE_NAME"_s, m_dir->filePath(u"run/switchyard-test"_s));
    return true;
}

void TstTerminate::startupDialogEndsOnSigterm()
{
    // installer/deps-debian.sh installs both: missing, the test fails rather than skips.
    QVERIFY2(!QStandardPaths::findExecutable(u"Xvfb"_s).isEmpty(), "Xvfb is not installed (apt-get install xvfb)");
    QVERIFY2(!QStandardPaths::findExecutable(u"xwininfo"_s).isEmpty(), "xwininfo is not installed (apt-get install x11-utils)");
    QVERIFY(QFile::exists(switchyardBinary()));
    QProcess xvfb;
    const auto stopXvfb = qScopeGuard([&xvfb] {
        xvfb.terminate();
        xvfb.waitForFinished(3000);
    });
    QProcessEnvironment env;
    QVERIFY(displayEnvironment(xvfb, &env));

    // No config, no arguments: a desktop user's first launch. The welcome asks before any relay
    // runs, and the headless error ("no GPU boxes to serve: ...") is not printed: no config yet
    // is no error for a desktop user (tst_secondlaunch: headless still prints it and exits 1).
    Launch launch;
    launch.start(env, {});
    QVERIFY2(launch.process.waitForStarted(5000), qPrintable(launch.said()));
    const QString display = env.value(u"DISPLAY"_s);
    QTRY_VERIFY2_WITH_TIMEOUT(launch.exited() || windowNames(display).contains(u"\"Switchyard: Welcome\""_s),
                              qPrintable(launch.said() + windowNames(display)), StartTimeoutMs);
    QVERIFY2(!launch.exited(), qPrintable(launch.said()));
    QVERIFY2(!launch.out.contains("listening on"), qPrintable(launch.said()));
    QVERIFY2(!launch.err.contains("no GPU boxes"), qPrintable(launch.said()));
    QVERIFY2(!launch.err.contains("switchyard:"), qPrintable(launch.said()));

    launch.process.terminate();   // SIGTERM, as `timeout`, systemd and logout send it
    QTRY_VERIFY2_WITH_TIMEOUT(launch.exited(), qPrintable(u"still running after SIGTERM\n"_s + launch.said()), ExitTimeoutMs);
    QCOMPARE(launch.process.exitStatus(), QProcess::NormalExit);
    QVERIFY2(launch.process.exitCode() == 0, qPrintable(launch.said()));
    QVERIFY2(!launch.err.contains("no GPU boxes"), qPrintable(launch.said()));
}

void TstTerminate::windowEndsOnSigterm()
{
    QVERIFY2(!QStandardPaths::findExecutable(u"Xvfb"_s).isEmpty(), "Xvfb is not installed (apt-get install xvfb)");
    QProcess xvfb;
    const auto stopXvfb = qScopeGuard([&xvfb] {
        xvfb.terminate();
        xvfb.waitForFinished(3000);
    });
    QProcessEnvironment env;
    QVERIFY(displayEnvironment(xvfb, &env));

    // The demo with its window up (no tray under a bare Xvfb: the window is the app).
    Launch launch;
    launch.start(env, {u"--demo"_s, u"--listen"_s, u"127.0.0.1:0"_s});
    QTRY_VERIFY2_WITH_TIMEOUT(launch.exited() || launch.out.contains("listening on"), qPrintable(launch.said()), StartTimeoutMs);
    QVERIFY2(!launch.exited(), qPrintable(launch.said()));
    launch.process.terminate();
    QTRY_VERIFY2_WITH_TIMEOUT(launch.exited(), qPrintable(u"still running after SIGTERM\n"_s + launch.said()), ExitTimeoutMs);
    QCOMPARE(launch.process.exitStatus(), QProcess::NormalExit);
    QVERIFY2(launch.process.exitCode() == 0, qPrintable(launch.said()));
}

void TstTerminate::logoutQuitsRelay()
{
    GuiFleet fleet;
    QVERIFY(fleet.start());
    DesktopApp desktop(fleet.clock, fleet.runner.get(), fleet.store.get(), nullptr, nullptr, DesktopApp::Options());
    desktop.start();
    QVERIFY(desktop.window()->isVisible());
    QSignalSpy stopped(fleet.runner.get(), &RelayRunner::stopped);

    // The session manager's "die" at logout reaches Qt as a Quit event to the application; a
    // window that hides to the tray must not swallow it: the relay stops as the tray's Quit does.
    QEvent quit(QEvent::Quit);
    QCoreApplication::sendEvent(qApp, &quit);
    QVERIFY(!desktop.window()->isVisible());
    QTRY_COMPARE_WITH_TIMEOUT(stopped.size(), 1, ExitTimeoutMs);
}

QTEST_MAIN(TstTerminate)
#include "tst_terminate.moc"
