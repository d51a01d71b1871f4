// The first run (issue 22): with no config the window welcomes (add a GPU box, or the demo);
// adding a box asks it what it serves before anything is saved, writes the config, and the
// relay then serves the box. Offscreen, against the fake llama.cpp router.
#include "app/relayrunner.h"
#include "app/relayservice.h"
#include "catalog/catalog.h"
#include "catalog/hostprobe.h"
#include "config/configloader.h"
#include "desktop/desktopapp.h"
#include "dialogs/addhostdialog.h"
#include "dialogs/welcomedialog.h"
#include "fakellamaserver.h"
#include "laterport.h"
#include "models/hosttablemodel.h"
#include "store/historystore.h"
#include "common/clock.h"

#include <QApplication>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace switchyard;
using namespace switchyard::test;
using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace {

constexpr int ProbeTimeoutMs = 10000;

fake::FakeOptions router()
{
    fake::FakeOptions o;
    o.models = {u"qwen-27b"_s, u"flint-40b"_s};
    o.loaded = {u"qwen-27b"_s};
    o.modelContext = {{u"qwen-27b"_s, 131072}, {u"flint-40b"_s, 262144}};
    o.loadDelay = 50ms;
    return o;
}

QStringList column(const QTableWidget *table, int col)
{
    QStringList out;
    for (int row = 0; row < table->rowCount(); ++row)
        out.append(table->item(row, col) ? table->item(row, col)->text() : QString());
    return out;
}

} // namespace

class TstFirstRun : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void welcomeOffersBoxOrDemo();
    void addHostAgainstFakeRouter();
    void addSingleModelServer();
    void bareAddressMeansHttp();
    void unreachableBoxIsNotSaved();
    void handEditedFileAsksFirst();
};

void TstFirstRun::welcomeOffersBoxOrDemo()
{
    QTemporaryDir dir;
    WelcomeDialog welcome(dir.filePath(u"switchyard.json"_s));
    welcome.show();
    QVERIFY(QTest::qWaitForWindowExposed(&welcome));
    QVERIFY(welcome.windowTitle().contains(u"Switchyard"_s));
    QVERIFY(welcome.addHostButton()->isVisible());
    QVERIFY(welcome.demoButton()->isVisible());
    QVERIFY(welcome.addHostButton()->text().contains(u"GPU"_s));
    QVERIFY(welcome.demoButton()->text().contains(u"Demo"_s));
    QVERIFY(welcome.addHostButton()->isDefault());
    // No config error anywhere in it: it is a welcome, not the command line's message.
    for (const QLabel *label : welcome.findChildren<QLabel *>())
        QVERIFY2(!label->text().contains(u"--upstream"_s), qPrintable(label->text()));
    // Closing it says what happens: Switchyard quits, and the welcome comes back next time.
    QVERIFY(welcome.quitButton()->isVisible());
    QCOMPARE(welcome.quitButton()->text(), u"&Quit"_s);
    bool told = false;
    for (const QLabel *label : welcome.findChildren<QLabel *>())
        told = told || (label->isVisible() && label->text().contains(u"Quit closes Switchyard"_s));
    QVERIFY(told);

    welcome.demoButton()->click();
    QCOMPARE(welcome.result(), int(QDialog::Accepted));
    QCOMPARE(welcome.choice(), WelcomeDialog::Choice::Demo);
    QVERIFY(!QFile::exists(welcome.configPath()));   // the demo saves nothing
}

void TstFirstRun::addHostAgainstFakeRouter()
{
    fake::FakeLlamaServer box(router());
    QVERIFY(box.listen());
    QTemporaryDir dir;
    const QString path = dir.filePath(u"config/switchyard.json"_s);

    AddHostDialog dialog(path);
    dialog.show();
    QVERIFY(!dialog.saveButton()->isEnabled());   // nothing is saved before the box is asked
    dialog.urlField()->setText(box.baseUrl().toString());
    dialog.checkButton()->click();
    QTRY_VERIFY_WITH_TIMEOUT(dialog.saveButton()->isEnabled(), ProbeTimeoutMs);

    // What was found, shown before saving: a router, its models, their context sizes.
    QCOMPARE(dialog.probe()->result().kind, HostProbe::Kind::Router);
    QVERIFY2(dialog.findings()->text().contains(u"router"_s), qPrintable(dialog.findings()->text()));
    QVERIFY(dialog.modelsTable()->isVisible());
    // In the router's order (it sorts them).
    QCOMPARE(column(dialog.modelsTable(), 0), (QStringList{u"flint-40b"_s, u"qwen-27b"_s}));
    QCOMPARE(column(dialog.modelsTable(), 1), (QStringList{u"not loaded"_s, u"loaded"_s}));
    QCOMPARE(column(dialog.modelsTable(), 2), (QStringList{u"256k"_s, u"128k"_s}));
    QCOMPARE(dialog.nameField()->text(), u"box"_s);   // 127.0.0.1 has no name to take
    QVERIFY(!QFile::exists(path));

    dialog.nameField()->setText(u"gpu"_s);
    dialog.saveButton()->click();
    QCOMPARE(dialog.result(), int(QDialog::Accepted));
    QCOMPARE(dialog.savedHost(), u"gpu"_s);

    // The config written: it loads, with the box as a static host.
    const ConfigResult loaded = ConfigLoader::load(path);
    QVERIFY2(loaded.ok(), qPrintable(loaded.errors.value(0).toString()));
    QCOMPARE(loaded.config->hosts.size(), 1);
    QCOMPARE(loaded.config->hosts.first().name, u"gpu"_s);
    QCOMPARE(loaded.config->hosts.first().engines.first().url, box.baseUrl());

    // The relay starts with it and serves the box: the window shows it with its models, and a
    // client sees them on /v1/models.
    Config config = *loaded.config;
    config.listenAddress = QHostAddress::LocalHost;
    config.listenPort = 0;
    SystemClock clock;
    HistoryStore history(dir.filePath(u"history.sqlite"_s), clock);
    QVERIFY(history.isOpen());
    RelayRunner runner(nullptr, &history);
    QString error;
    QVERIFY2(runner.start(config, &error), qPrintable(error));
    DesktopApp desktop(clock, &runner, &history, nullptr, nullptr, DesktopApp::Options());
    desktop.start();
    HostTableModel *hosts = desktop.hosts();
    QCOMPARE(hosts->rowCount(), 1);
    const QModelIndex gpu = hosts->index(0, 0);
    QCOMPARE(gpu.data(HostTableModel::NameRole).toString(), u"gpu"_s);
    QTRY_COMPARE_WITH_TIMEOUT(gpu.data(HostTableModel::ModelsTotalRole).toInt(), 2, ProbeTimeoutMs);
    QTRY_COMPARE_WITH_TIMEOUT(gpu.data(HostTableModel::ModelsLoadedRole).toInt(), 1, ProbeTimeoutMs);

    QNetworkAccessManager nam;
    QNetworkReply *reply = nam.get(QNetworkRequest(QUrl(runner.service()->endpoint().toString() + u"/v1/models"_s)));
    QSignalSpy done(reply, &QNetworkReply::finished);
    QVERIFY(done.wait(ProbeTimeoutMs));
    const QByteArray models = reply->readAll();
    reply->deleteLater();
    QVERIFY2(models.contains("gpu-qwen-27b") && models.contains("gpu-flint-40b"), models.constData());
}

void TstFirstRun::addSingleModelServer()
{
    fake::FakeOptions o;
    o.singleModel = true;
    o.models = {u"tiny"_s};
    o.loaded = {u"tiny"_s};
    o.contextSize = 8192;
    fake::FakeLlamaServer box(o);
    QVERIFY(box.listen());
    QTemporaryDir dir;
    AddHostDialog dialog(dir.filePath(u"switchyard.json"_s));
    dialog.urlField()->setText(box.baseUrl().toString());
    dialog.check();
    QTRY_VERIFY_WITH_TIMEOUT(!dialog.probe()->isRunning(), ProbeTimeoutMs);
    QVERIFY2(dialog.probe()->result().ok(), qPrintable(dialog.probe()->result().error));
    QCOMPARE(dialog.probe()->result().kind, HostProbe::Kind::SingleModel);
    QVERIFY2(dialog.findings()->text().contains(u"one model"_s), qPrintable(dialog.findings()->text()));
    QCOMPARE(dialog.modelsTable()->rowCount(), 1);
    QCOMPARE(dialog.modelsTable()->item(0, 2)->text(), u"8k"_s);
    QVERIFY(dialog.saveButton()->isEnabled());
}

// Issue 30: the welcome says an address is enough, so "127.0.0.1:PORT" is checked and saved as
// http://127.0.0.1:PORT (it was refused as "not a valid URL").
void TstFirstRun::bareAddressMeansHttp()
{
    fake::FakeLlamaServer box(router());
    QVERIFY(box.listen());
    QTemporaryDir dir;
    const QString path = dir.filePath(u"switchyard.json"_s);
    AddHostDialog dialog(path);
    const QString address = u"127.0.0.1:%1"_s.arg(box.baseUrl().port());
    dialog.urlField()->setText(address);
    dialog.check();
    QTRY_VERIFY_WITH_TIMEOUT(!dialog.probe()->isRunning(), ProbeTimeoutMs);
    QVERIFY2(dialog.probe()->result().ok(), qPrintable(dialog.probe()->result().error));
    QCOMPARE(dialog.probe()->result().kind, HostProbe::Kind::Router);
    QVERIFY(dialog.saveButton()->isEnabled());
    dialog.saveButton()->click();
    QCOMPARE(dialog.result(), int(QDialog::Accepted));
    const ConfigResult loaded = ConfigLoader::load(path);
    QVERIFY2(loaded.ok(), qPrintable(loaded.errors.value(0).toString()));
    QCOMPARE(loaded.config->hosts.first().engines.first().url, QUrl(u"http://"_s + address));
}

void TstFirstRun::unreachableBoxIsNotSaved()
{
    // A port nobody listens on.
    const quint16 port = portForLater();
    QTemporaryDir dir;
    const QString path = dir.filePath(u"switchyard.json"_s);
    AddHostDialog dialog(path);
    dialog.urlField()->setText(u"http://127.0.0.1:%1"_s.arg(port));
    dialog.check();
    QTRY_VERIFY_WITH_TIMEOUT(!dialog.probe()->isRunning(), ProbeTimeoutMs);
    QVERIFY(!dialog.probe()->result().reachable);
    QVERIFY2(dialog.findings()->text().contains(u"Nothing answers"_s), qPrintable(dialog.findings()->text()));
    QVERIFY(!dialog.saveButton()->isEnabled());
    dialog.accept();   // Enter on the dialog: it asks again, it does not save
    QTRY_VERIFY_WITH_TIMEOUT(!dialog.probe()->isRunning(), ProbeTimeoutMs);
    QVERIFY(!QFile::exists(path));
    QCOMPARE(dialog.result(), int(QDialog::Rejected));

    // Not a URL the config takes: said at once, in the config's words.
    dialog.urlField()->setText(u"https://example.invalid"_s);
    dialog.check();
    QTRY_VERIFY_WITH_TIMEOUT(!dialog.probe()->isRunning(), ProbeTimeoutMs);
    QVERIFY(!dialog.probe()->result().reachable);
    QVERIFY(!dialog.probe()->result().error.isEmpty());
}

void TstFirstRun::handEditedFileAsksFirst()
{
    fake::FakeLlamaServer box(router());
    QVERIFY(box.listen());
    fake::FakeLlamaServer other(router());
    QVERIFY(other.listen());
    QTemporaryDir dir;
    const QString path = dir.filePath(u"switchyard.json"_s);
    const QByteArray mine = u"{ \"\x2f/\": \"mine\", \"hosts\": { \"old\": { \"engines\": { \"main\": { \"url\": \"%1\" } } } } }\n"_s
                                .arg(other.baseUrl().toString()).toUtf8();
    {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(mine);
    }
    AddHostDialog dialog(path);
    QStringList asked;
    bool answer = false;
    dialog.setConfirm([&](const QString &question) {
        asked.append(question);
        return answer;
    });
    dialog.urlField()->setText(box.baseUrl().toString());
    dialog.check();
    QTRY_VERIFY_WITH_TIMEOUT(dialog.saveButton()->isEnabled(), ProbeTimeoutMs);

    // Declined: the file is untouched.
    dialog.saveButton()->click();
    QCOMPARE(asked.size(), 1);
    QVERIFY2(asked.first().contains(u"by hand"_s) && asked.first().contains(u"1 comment"_s), qPrintable(asked.first()));
    QVERIFY2(asked.first().contains(u"\"box\""_s), qPrintable(asked.first()));
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), mine);
    f.close();

    // Accepted: the host is added after the old one, the comment kept, the old file in .bak.
    answer = true;
    dialog.saveButton()->click();
    QCOMPARE(asked.size(), 2);
    QCOMPARE(dialog.result(), int(QDialog::Accepted));
    const ConfigResult loaded = ConfigLoader::load(path);
    QVERIFY2(loaded.ok(), qPrintable(loaded.errors.value(0).toString()));
    QCOMPARE(loaded.config->hosts.size(), 2);
    QCOMPARE(loaded.config->hosts.at(0).name, u"old"_s);
    QCOMPARE(loaded.config->hosts.at(1).name, u"box"_s);
    QFile backup(path + u".bak"_s);
    QVERIFY(backup.open(QIODevice::ReadOnly));
    QCOMPARE(backup.readAll(), mine);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QVERIFY(f.readAll().contains("\"\x2f/\": \"mine\""));
}

QTEST_MAIN(TstFirstRun)
#include "tst_firstrun.moc"
