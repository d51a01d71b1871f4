// A second `switchyard` launch while one runs (issue 17, item 6): it hands over to the running
// instance before it reads or validates any config, and exits 0. Real processes: the first is
// `switchyard --demo`, offscreen (no window) and under an Xvfb of its own (a window).
#include "app/appsettings.h"
#include "laterport.h"
#include "processlaunch.h"

#include <QLocalSocket>
#include <QProcess>
#include <QScopeGuard>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>
#include <sys/types.h>

#include <memory>

using namespace switchyard;
using namespace switchyard::test;
using namespace Qt::StringLiterals;

namespace {

constexpr int StartTimeoutMs = 20000;
constexpr int ExitTimeoutMs = 10000;

bool answersOn(const QString &name)
{
    QLocalSocket socket;
    socket.connectToServer(name);
    return socket.waitForConnected(200);
}

} // namespace

class TstSecondLaunch : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void handsOverToWindowlessRelay();
    void raisesWindowBeforeReadingConfig();

private:
    QProcessEnvironment isolatedEnvironment() const { return test::isolatedEnvironment(*m_dir); }
    bool startFirst(Launch &first, const QProcessEnvironment &env, const QStringList &arguments, const QString &instance);

    std::unique_ptr<QTemporaryDir> m_dir;
};

void TstSecondLaunch::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    QVERIFY(QFile::exists(switchyardBinary()));
    QVERIFY(makeIsolatedFolders(*m_dir));
}

// Starts the first instance and waits until it answers on its single-instance socket.
bool TstSecondLaunch::startFirst(Launch &first, const QProcessEnvironment &env, const QStringList &arguments,
                                 const QString &instance)
{
    first.start(env, arguments);
    if (!first.process.waitForStarted(5000))
        return false;
    return QTest::qWaitFor([&] { return first.exited() || answersOn(instance); }, StartTimeoutMs) && !first.exited();
}

void TstSecondLaunch::handsOverToWindowlessRelay()
{
    // Offscreen the demo runs without a window; it still answers second launches. Any port will
    // do, so the socket is named outright.
    QProcessEnvironment env = isolatedEnvironment();
    const QString instance = m_dir->filePath(u"run/switchyard-test"_s);
    env.insert(u"SWITCHYARD_INSTANCE_NAME"_s, instance);
    Launch first;
    QVERIFY2(startFirst(first, env, {u"--demo"_s, u"--listen"_s, u"127.0.0.1:0"_s}, instance), qPrintable(first.said()));

    // No arguments: on its own it has no upstreams, the config error the issue saw.
    Launch second;
    second.start(env, {});
    QVERIFY2(second.process.waitForFinished(ExitTimeoutMs), qPrintable(second.said()));
    QCOMPARE(second.process.exitStatus(), QProcess::NormalExit);
    QVERIFY2(second.process.exitCode() == 0, qPrintable(second.said()));
    QVERIFY2(second.err.contains("already running, without a window"), qPrintable(second.said()));
    QVERIFY2(!second.err.contains("--upstream"), qPrintable(second.said()));
    QVERIFY2(!second.out.contains("listening on"), qPrintable(second.said()));
    QTRY_VERIFY2_WITH_TIMEOUT(first.out.contains("a second launch found this relay"), qPrintable(first.said()), ExitTimeoutMs);

    // With a config of its own: handed over all the same, and told that it is not used.
    const QString other = m_dir->filePath(u"other.json"_s);
    Launch third;
    third.start(env, {u"--config"_s, other});
    QVERIFY2(third.process.waitForFinished(ExitTimeoutMs), qPrintable(third.said()));
    QVERIFY2(third.process.exitCode() == 0, qPrintable(third.said()));
    QVERIFY2(third.err.contains("keeps its own config; --config not applied"), qPrintable(third.said()));

    // --headless never hands over: the config error, saying how to name a box.
    Launch headless;
    headless.start(env, {u"--headless"_s});
    QVERIFY2(headless.process.waitForFinished(ExitTimeoutMs), qPrintable(headless.said()));
    QCOMPARE(headless.process.exitCode(), 1);
    QVERIFY2(headless.err.contains("no GPU boxes to serve"), qPrintable(headless.said()));
    QVERIFY2(headless.err.contains("--demo"), qPrintable(headless.said()));   // says how to start
    QVERIFY2(!headless.err.contains("already running"), qPrintable(headless.said()));

    QVERIFY2(!first.exited(), qPrintable(first.said()));
    first.stop();
    QCOMPARE(first.out.count("a second launch found this relay"), 2);
}

void TstSecondLaunch::raisesWindowBeforeReadingConfig()
{
    // installer/deps-debian.sh installs it: missing, the test fails rather than skips.
    QVERIFY2(!QStandardPaths::findExecutable(u"Xvfb"_s).isEmpty(), "Xvfb is not installed (apt-get install xvfb)");
    QProcess xvfb;
    QString display;
    const auto stopXvfb = qScopeGuard([&xvfb] {
        xvfb.terminate();
        xvfb.waitForFinished(3000);
    });
    QVERIFY(startXvfb(xvfb, &display));
    QProcessEnvironment env = isolatedEnvironment();
    env.insert(u"QT_QPA_PLATFORM"_s, u"xcb"_s);
    env.insert(u"DISPLAY"_s, display);

    // The desktop's settings: a port of the test's own, and a config file that cannot be read
    // (a FIFO nobody writes: reading it blocks). The demo does not read it; a second launch that
    // did would hang.
    const quint16 port = portForLater();
    QVERIFY(port != 0);
    const QString fifo = m_dir->filePath(u"switchyard.json"_s);
    QVERIFY(::mkfifo(QFile::encodeName(fifo).constData(), 0600) == 0);
    {
        AppSettings settings(std::make_unique<QSettings>(m_dir->filePath(u"settings.ini"_s), QSettings::IniFormat));
        settings.setListen(u"127.0.0.1:%1"_s.arg(port));
        settings.setConfigPath(fifo);
        settings.sync();
    }
    // The socket lives in the runtime folder, named for the user and the port.
    const QString instance = m_dir->filePath(u"run/switchyard-sytest-%1"_s.arg(port));
    Launch first;
    QVERIFY2(startFirst(first, env, {u"--demo"_s}, instance), qPrintable(first.said()));

    Launch second;
    second.start(env, {});
    const bool exited = second.process.waitForFinished(ExitTimeoutMs);
    second.stop();
    QVERIFY2(exited, qPrintable(u"the second launch did not exit (reading its config?)\n"_s + second.said()));
    QVERIFY2(second.process.exitCode() == 0, qPrintable(second.said()));
    QVERIFY2(second.err.contains("already running; brought its window up"), qPrintable(second.said()));
    QTRY_VERIFY2_WITH_TIMEOUT(first.out.contains("a second launch brought the window up"), qPrintable(first.said()), ExitTimeoutMs);

    QVERIFY2(!first.exited(), qPrintable(first.said()));
    first.stop();
}

QTEST_GUILESS_MAIN(TstSecondLaunch)
#include "tst_secondlaunch.moc"
