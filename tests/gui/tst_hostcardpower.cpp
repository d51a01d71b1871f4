// The host card of a box that sleeps (issue 20): a static host with wake-on-LAN whose engine
// does not answer reads "asleep", a request for it makes the card say "waking", and once its
// engine answers the card is up again. The packet goes to a loopback UDP socket.
#include "app/relayservice.h"
#include "config/configloader.h"
#include "fakellamaserver.h"
#include "hosts/hostcontroller.h"
#include "laterport.h"
#include "models/hosttablemodel.h"
#include "rawhttpclient.h"
#include "shared/hostactivity.h"
#include "window/hostcarddelegate.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <QUdpSocket>

#include <memory>

using namespace switchyard;
using namespace switchyard::test;
using namespace Qt::StringLiterals;

class TstHostCardPower : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void asleepThenWakingThenUp();
};

void TstHostCardPower::asleepThenWakingThenUp()
{
    QUdpSocket lan;
    QVERIFY(lan.bind(QHostAddress::LocalHost, 0));
    const quint16 enginePort = portForLater();
    QTemporaryDir dir;
    const QJsonObject wake{{"mac"_L1, "3c:7c:3f:1e:22:0a"_L1}, {"broadcast"_L1, "127.0.0.1"_L1},
                           {"port"_L1, lan.localPort()}, {"timeout_s"_L1, 30}};
    const QJsonObject engines{{"main"_L1, QJsonObject{{"url"_L1, u"http://127.0.0.1:%1"_s.arg(enginePort)},
                                                     {"models"_L1, QJsonArray{u"m"_s}}}}};
    const QJsonObject root{{"listen"_L1, "127.0.0.1:0"_L1},
                           {"state_dir"_L1, dir.filePath(u"state"_s)},
                           {"hosts"_L1, QJsonObject{{"sleeper"_L1, QJsonObject{{"wake"_L1, wake}, {"engines"_L1, engines}}}}}};
    const ConfigResult config = ConfigLoader::parse(QJsonDocument(root).toJson(), u"sleeper.json"_s);
    QVERIFY2(config.ok(), qPrintable(config.errors.value(0).toString()));
    RelayService relay(*config.config, RelayService::standardDrivers(*config.config));
    QString error;
    QVERIFY2(relay.start(&error), qPrintable(error));
    HostTableModel hosts;
    hosts.setService(&relay);
    const auto card = [&hosts] { return hosts.index(hosts.rowOf(u"sleeper"_s)); };
    const auto activity = [&] { return HostActivity(card().data(HostTableModel::ActivityRole).toInt()); };

    // Its engine does not answer and it can be woken: asleep, not down, and the card says how it comes back.
    QTRY_COMPARE_WITH_TIMEOUT(activity(), HostActivity::Asleep, 5000);
    QCOMPARE(card().data(HostTableModel::ActivityTextRole).toString(), u"asleep (the next request wakes it)"_s);
    QCOMPARE(hosts.hostsUp(), 0);

    // A request sends the packet; the card says waking while the request waits.
    RawHttpClient client(relay.endpoint().port());
    QVERIFY(client.connectToServer());
    client.send(RawHttpClient::post("/v1/chat/completions",
                                    R"({"model":"sleeper-m","max_tokens":4,"messages":[{"role":"user","content":"hi"}]})"));
    QTRY_VERIFY_WITH_TIMEOUT(lan.hasPendingDatagrams(), 5000);
    QTRY_COMPARE_WITH_TIMEOUT(activity(), HostActivity::Waking, 5000);
    QCOMPARE(card().data(HostTableModel::ActivityTextRole).toString(), u"waking (waiting for the host to answer)"_s);

    // The box answers: the request is served and the card is up.
    fake::FakeOptions options;
    options.models = {u"m"_s};
    options.loaded = {u"m"_s};
    options.singleModel = true;
    fake::FakeLlamaServer engine(options);
    QVERIFY(engine.listen(QHostAddress::LocalHost, enginePort));
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 1, 10000);
    QCOMPARE(client.responses().last().status, 200);
    QTRY_COMPARE_WITH_TIMEOUT(activity(), HostActivity::Up, 5000);
    QCOMPARE(hosts.hostsUp(), 1);
}

QTEST_MAIN(TstHostCardPower)
#include "tst_hostcardpower.moc"
