// What a window watching a relay elsewhere hands the user's coding agents (issue 22): Copy
// Endpoint URL (window and tray) copies the watched relay's client URL, derived from the URL the
// user typed, not the URL of the relay here, which is not running; Export Client Config offers the
// watched relay's models (as its admin API lists them) and writes configs whose base URL is that
// relay's, also when its /v1/models wants a client key this window has not got.
#include "app/remoterelayfeed.h"
#include "desktop/desktopapp.h"
#include "dialogs/exportdialog.h"
#include "guifleet.h"
#include "models/hosttablemodel.h"
#include "models/modeltablemodel.h"
#include "processlaunch.h"
#include "remoterelayfixture.h"
#include "shared/clientconfigexporter.h"
#include "tray/traycontroller.h"
#include "window/mainwindow.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QMenu>
#include <QMenuBar>
#include <QSignalSpy>

using namespace switchyard;
using namespace switchyard::test;
using namespace Qt::StringLiterals;

namespace {

constexpr int WaitMs = 15000;

QAction *actionNamed(const QList<QAction *> &actions, const QString &text)
{
    for (QAction *a : actions) {
        if (a->text() == text)
            return a;
    }
    return nullptr;
}

QAction *windowCopyAction(MainWindow *window)
{
    for (QAction *menu : window->menuBar()->actions()) {
        if (menu->menu()) {
            if (QAction *a = actionNamed(menu->menu()->actions(), u"&Copy Endpoint URL"_s))
                return a;
        }
    }
    return nullptr;
}

QStringList comboData(const QComboBox *box)
{
    QStringList out;
    for (int i = 0; i < box->count(); ++i) {
        if (!box->itemData(i).toString().isEmpty())
            out.append(box->itemData(i).toString());
    }
    out.sort();
    return out;
}

} // namespace

class TstRemoteExport : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void relayBaseFromWhatWasTyped_data();
    void relayBaseFromWhatWasTyped();
    void copyEndpointGivesTheWatchedRelays();
    void exportWritesTheWatchedRelaysConfig();
};

void TstRemoteExport::relayBaseFromWhatWasTyped_data()
{
    QTest::addColumn<QString>("typed");
    QTest::addColumn<QString>("client");
    QTest::newRow("plain") << u"http://gpu-server.lan:18766"_s << u"http://gpu-server.lan:18766/v1"_s;
    QTest::newRow("slash") << u"http://gpu-server.lan:18766/"_s << u"http://gpu-server.lan:18766/v1"_s;
    QTest::newRow("v1") << u"http://gpu-server.lan:18766/v1/"_s << u"http://gpu-server.lan:18766/v1"_s;
    QTest::newRow("admin") << u"https://gpu-server.lan/admin"_s << u"https://gpu-server.lan/v1"_s;
    QTest::newRow("prefix") << u"https://proxy.lan/switchyard/"_s << u"https://proxy.lan/switchyard/v1"_s;
    QTest::newRow("query") << u"http://gpu-server.lan:8080/?x=1#top"_s << u"http://gpu-server.lan:8080/v1"_s;
}

void TstRemoteExport::relayBaseFromWhatWasTyped()
{
    QFETCH(QString, typed);
    QFETCH(QString, client);
    RemoteRelayFeed feed(QUrl(typed), u"t"_s, nullptr);
    QCOMPARE(feed.clientUrl().toString(), client);
    QCOMPARE(feed.relay(), QUrl(typed));   // what the settings hold, as typed
}

void TstRemoteExport::copyEndpointGivesTheWatchedRelays()
{
    GuiFleet local;   // the relay here, which the window does not run while it watches
    QVERIFY(local.start());
    RemoteRelay remote;
    QVERIFY(remote.start());
    DesktopApp desktop(local.clock, local.runner.get(), local.store.get(), nullptr, nullptr, DesktopApp::Options());
    desktop.start();
    const QString remoteClientUrl = remote.relay->endpoint().toString() + u"/v1"_s;
    const QString localClientUrl = local.endpoint().toString() + u"/v1"_s;
    QVERIFY(remoteClientUrl != localClientUrl);

    // Typed as the agents know it, with /v1/: the feed still finds the admin API beside it.
    desktop.watchRemote(QUrl(remoteClientUrl + u"/"_s), RemoteToken);
    QTRY_COMPARE_WITH_TIMEOUT(desktop.hosts()->hostNames(), (QStringList{u"r1"_s, u"r2"_s}), WaitMs);
    QVERIFY2(desktop.remote()->error().isEmpty(), qPrintable(desktop.remote()->error()));

    QAction *copy = windowCopyAction(desktop.window());
    QVERIFY(copy);
    QApplication::clipboard()->setText(u"something else"_s);
    copy->trigger();
    QCOMPARE(QApplication::clipboard()->text(), remoteClientUrl);
    QCOMPARE(desktop.window()->clientUrl(), remoteClientUrl);
    // The tray's Copy Endpoint URL, the same.
    QAction *trayCopy = actionNamed(desktop.tray()->menu()->actions(), u"&Copy Endpoint URL"_s);
    QVERIFY(trayCopy);
    QApplication::clipboard()->setText(u"something else"_s);
    trayCopy->trigger();
    QCOMPARE(QApplication::clipboard()->text(), remoteClientUrl);

    // Back to the relay here: its URL again.
    desktop.runHere();
    copy->trigger();
    QCOMPARE(QApplication::clipboard()->text(), localClientUrl);
    trayCopy->trigger();
    QCOMPARE(QApplication::clipboard()->text(), localClientUrl);
}

void TstRemoteExport::exportWritesTheWatchedRelaysConfig()
{
    QVERIFY(QFile::exists(switchyardBinary()));
    GuiFleet local;   // h1, h2 here: none of their models may be offered
    QVERIFY(local.start());
    // The watched relay wants a client key on /v1/models, which this window has not got: the
    // export must list the models the admin API gave.
    RemoteRelay remote;
    QVERIFY(remote.start(GuiFleet::defaultH2(), [](Config &c) { c.access.clientKeys = {{u"laptop"_s, u"client-k3y"_s}}; }));
    DesktopApp desktop(local.clock, local.runner.get(), local.store.get(), nullptr, nullptr, DesktopApp::Options());
    desktop.start();
    desktop.watchRemote(remote.relay->endpoint(), RemoteToken);
    QTRY_COMPARE_WITH_TIMEOUT(desktop.window()->modelTable()->rowCount(), 3, WaitMs);   // r1-m1, r1-m2, r2-m3
    const QString base = remote.relay->endpoint().toString();

    ExportDialog *dialog = desktop.window()->showExportDialog(u"opencode"_s);
    dialog->exporter()->setProgram(switchyardBinary());
    const QStringList remoteAliases{u"r1-m1"_s, u"r1-m2"_s, u"r2-m3"_s};
    QCOMPARE(comboData(dialog->modelBox()), remoteAliases);
    QCOMPARE(comboData(dialog->tierBox(u"haiku"_s)), remoteAliases);
    QSignalSpy exported(dialog, &ExportDialog::exported);
    QTRY_VERIFY_WITH_TIMEOUT(!exported.isEmpty(), WaitMs);
    QVERIFY(exported.last().value(0).toBool());
    QString config = dialog->preview();
    QVERIFY2(config.contains(u"\"baseURL\": \"%1/v1\""_s.arg(base)), qPrintable(config));
    for (const QString &alias : remoteAliases)
        QVERIFY2(config.contains(u"\"id\": \"%1\""_s.arg(alias)), qPrintable(config));
    QVERIFY2(!config.contains(u"h1-m1"_s) && !config.contains(local.endpoint().toString()), qPrintable(config));
    // Claude Code with one of the remote's models for a tier: its env points there too.
    dialog->setClient(u"claude-code"_s);
    dialog->tierBox(u"haiku"_s)->setCurrentIndex(dialog->tierBox(u"haiku"_s)->findData(u"r2-m3"_s));
    QTRY_VERIFY_WITH_TIMEOUT(dialog->preview().contains(u"ANTHROPIC_BASE_URL"_s)
                                 && dialog->preview().contains(u"r2-m3"_s), WaitMs);
    config = dialog->preview();
    QVERIFY2(config.contains(u"\"ANTHROPIC_BASE_URL\": \"%1\""_s.arg(base)), qPrintable(config));
    dialog->close();

    // The tray's export (copied to the clipboard) reads the same list and points there.
    ClientConfigExporter *trayExporter = desktop.tray()->exporter();
    QCOMPARE(trayExporter->modelList(), desktop.remote()->modelsJson());
    trayExporter->setProgram(switchyardBinary());
    QSignalSpy trayDone(trayExporter, &ClientConfigExporter::finished);
    desktop.tray()->exportConfig(u"pi"_s);
    QVERIFY(trayDone.wait(WaitMs));
    QVERIFY2(trayDone.last().value(1).toBool(), qPrintable(trayDone.last().value(2).toString()));
    QVERIFY2(trayDone.last().value(2).toString().contains(base + u"/v1"_s), qPrintable(trayDone.last().value(2).toString()));

    // Back to the relay here: its own models again, and the export asks it.
    desktop.runHere();
    QVERIFY(trayExporter->modelList().isEmpty());
    ExportDialog *here = desktop.window()->showExportDialog(u"opencode"_s);
    QVERIFY(here->exporter()->modelList().isEmpty());
    QVERIFY(comboData(here->modelBox()).contains(u"h1-m1"_s));
    QVERIFY(!comboData(here->modelBox()).contains(u"r1-m1"_s));
    here->close();
}

QTEST_MAIN(TstRemoteExport)
#include "tst_remoteexport.moc"
