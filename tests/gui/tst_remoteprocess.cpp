// Watching a relay that runs as a process of its own (issue 22's done-when): the real
// `switchyard --headless` in front of a fake router, with an admin token; the window here attaches
// by URL and token and shows that relay's host (live as that relay hears it), its models and a
// request made to it.
#include "desktop/desktopapp.h"
#include "guifleet.h"
#include "models/hosttablemodel.h"
#include "models/modeltablemodel.h"
#include "processlaunch.h"
#include "rawhttpclient.h"
#include "shared/hostactivity.h"
#include "store/requestlogmodel.h"
#include "window/mainwindow.h"

#include <QRegularExpression>

using namespace switchyard;
using namespace switchyard::test;
using namespace Qt::StringLiterals;

namespace {

constexpr int WaitMs = 15000;
const QString Token = u"remote-process-t0ken"_s;

bool logHasModel(const RequestLogModel *log, const QString &model)
{
    for (int row = 0; row < log->rowCount(); ++row) {
        if (log->recordAt(row).model == model)
            return true;
    }
    return false;
}

bool modelTableHas(const ModelTableModel *models, const QString &alias)
{
    return models->rowOfAlias(alias) >= 0;
}

} // namespace

class TstRemoteProcess : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void attachToARelayProcess();
};

void TstRemoteProcess::attachToARelayProcess()
{
    QVERIFY(QFile::exists(switchyardBinary()));
    fake::FakeLlamaServer box(GuiFleet::defaultH1());   // models m1 (loaded) and m2
    QVERIFY(box.listen());
    QTemporaryDir dir;
    QVERIFY(makeIsolatedFolders(dir));
    const QString config = dir.filePath(u"switchyard.json"_s);
    {
        QFile f(config);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"admin": {"token": ")" + Token.toUtf8() + R"("}, "hosts": {"box": {"driver": "static", )"
                R"("engines": {"main": {"url": ")" + box.baseUrl().toString().toUtf8() + R"("}}}}})");
    }
    Launch relay;
    relay.start(isolatedEnvironment(dir), {u"--headless"_s, u"--config"_s, config, u"--listen"_s, u"127.0.0.1:0"_s,
                                           u"--data-dir"_s, dir.filePath(u"data"_s)});
    const QRegularExpression listeningOn(u"listening on (http://127\\.0\\.0\\.1:\\d+)"_s);
    QTRY_VERIFY2_WITH_TIMEOUT(relay.exited() || listeningOn.match(QString::fromUtf8(relay.out)).hasMatch(),
                              qPrintable(relay.said()), WaitMs);
    QVERIFY2(!relay.exited(), qPrintable(relay.said()));
    // Issue 30 item 12: one host is "1 host", a plural form (%n), not "(1 hosts)".
    QVERIFY2(relay.out.contains("(1 host") && !relay.out.contains("(1 hosts)"), qPrintable(relay.said()));
    const QUrl url(listeningOn.match(QString::fromUtf8(relay.out)).captured(1));

    GuiFleet local;   // the relay this window would run itself (h1, h2) until it attaches
    QVERIFY(local.start());
    DesktopApp desktop(local.clock, local.runner.get(), local.store.get(), nullptr, nullptr, DesktopApp::Options());
    desktop.start();
    desktop.watchRemote(url, Token);

    // Its host, up, with its two models; the models tab lists them.
    QTRY_COMPARE_WITH_TIMEOUT(desktop.hosts()->hostNames(), QStringList{u"box"_s}, WaitMs);
    QTRY_VERIFY_WITH_TIMEOUT(desktop.window()->statusText().contains(url.toString()), WaitMs);
    const QModelIndex card = desktop.hosts()->index(desktop.hosts()->rowOf(u"box"_s));
    QTRY_COMPARE_WITH_TIMEOUT(HostActivity(card.data(HostTableModel::ActivityRole).toInt()), HostActivity::Up, WaitMs);
    QTRY_COMPARE_WITH_TIMEOUT(card.data(HostTableModel::ModelsTotalRole).toInt(), 2, WaitMs);
    // Live as that relay hears it (its router's event feed open), not "polled N s ago".
    QTRY_VERIFY_WITH_TIMEOUT(card.data(HostTableModel::LiveRole).toBool(), WaitMs);
    QTRY_VERIFY_WITH_TIMEOUT(modelTableHas(desktop.window()->modelTable(), u"box-m1"_s), WaitMs);
    QVERIFY(modelTableHas(desktop.window()->modelTable(), u"box-m2"_s));

    // A request made to that relay shows in this window's log, and nothing of the relay here.
    RawHttpClient client(quint16(url.port()));
    QVERIFY(client.connectToServer());
    client.send(RawHttpClient::post("/v1/chat/completions",
                                    R"({"model":"box-m1","messages":[{"role":"user","content":"hi"}]})"));
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 1, WaitMs);
    QCOMPARE(client.responses().first().status, 200);
    QTRY_VERIFY_WITH_TIMEOUT(logHasModel(desktop.window()->requestLog(), u"box-m1"_s), WaitMs);
    QVERIFY(!logHasModel(desktop.window()->requestLog(), u"h1-m1"_s));

    relay.stop();
    QCOMPARE(relay.process.exitStatus(), QProcess::NormalExit);
}

QTEST_MAIN(TstRemoteProcess)
#include "tst_remoteprocess.moc"
