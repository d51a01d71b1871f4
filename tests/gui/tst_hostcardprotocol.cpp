// A relay and its box's agent one agent protocol apart (issue 33, item 5): the relay keeps
// serving, and the window says so on the host's card, the one of the relay itself and the one of a
// window watching that relay from elsewhere (through /admin/hosts).
#include "app/remoterelayfeed.h"
#include "engines/agentservice.h"
#include "engines/boxprotocol.h"
#include "models/hosttablemodel.h"
#include "remoterelayfixture.h"
#include "store/historystore.h"
#include "window/hostcarddelegate.h"

#include <QAbstractItemModelTester>

using namespace switchyard;
using namespace switchyard::test;
using namespace Qt::StringLiterals;

namespace {

constexpr int WaitMs = 10000;

} // namespace

class TstHostCardProtocol : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void noticeWords();
    void anOlderAgentIsShownOnTheCard();
};

void TstHostCardProtocol::noticeWords()
{
    QCOMPARE(HostTableModel::protocolNotice(1, 2),
             u"agent speaks protocol 1; this relay 2: switching without arbitration, update the agent"_s);
    QCOMPARE(HostTableModel::protocolNotice(3, 2), u"agent speaks protocol 3; this relay 2: update this relay"_s);
    QCOMPARE(HostTableModel::protocolNotice(2, 2), QString());
    QCOMPARE(HostTableModel::protocolNotice(0, 2), QString());   // no agent, or it has not said yet
}

// An agent of protocol 1 (an AgentService without an arbiter, as an older release answers) in
// front of a relay of protocol 2, next to two hosts without an agent.
void TstHostCardProtocol::anOlderAgentIsShownOnTheCard()
{
    QTemporaryDir agentState;
    QVERIFY(agentState.isValid());
    AgentConfig agentConfig;
    agentConfig.listenAddress = QHostAddress::LocalHost;
    agentConfig.listenPort = 0;
    agentConfig.stateDir = agentState.path();
    // The engine: a fake router that already answers; what the agent starts for it only has to
    // live until the agent stops it.
    fake::FakeLlamaServer router(GuiFleet::defaultH2());
    QVERIFY(router.listen());
    EngineConfig engine;
    engine.name = u"main"_s;
    engine.url = router.baseUrl();
    engine.argv = {u"/bin/sleep"_s, u"600"_s};
    agentConfig.engines = {engine};
    AgentService oldAgent(agentConfig);
    QString error;
    QVERIFY2(oldAgent.start(&error), qPrintable(error));

    RemoteRelay remote;
    QVERIFY(remote.start(GuiFleet::defaultH2(), [&](Config &config) {
        HostConfig box;
        box.name = u"box"_s;
        box.driver = u"agent"_s;
        box.agent = oldAgent.endpoint();
        box.engines = {engine};
        config.hosts.append(box);
    }));
    const QString expected = HostTableModel::protocolNotice(1, BoxProtocol::Version);
    QVERIFY(!expected.isEmpty());

    // The relay's own window.
    HostTableModel hosts;
    QAbstractItemModelTester tester(&hosts);
    hosts.setService(remote.relay.get());
    QTRY_VERIFY_WITH_TIMEOUT(hosts.rowOf(u"box"_s) >= 0, WaitMs);
    QTRY_COMPARE_WITH_TIMEOUT(hosts.index(hosts.rowOf(u"box"_s)).data(HostTableModel::ProtocolNoticeRole).toString(),
                              expected, WaitMs);
    // The relay serves on (no engine runs yet: the next request starts one, by this relay as
    // protocol 1 wants).
    QTRY_VERIFY_WITH_TIMEOUT(hosts.activity(hosts.rowOf(u"box"_s)) == HostActivity::Idle
                                 || hosts.activity(hosts.rowOf(u"box"_s)) == HostActivity::Up,
                             WaitMs);
    const QModelIndex box = hosts.index(hosts.rowOf(u"box"_s));
    const QDateTime now = QDateTime::currentDateTime();
    QCOMPARE(HostCardDelegate::detailLine(box, now), expected);
    QVERIFY(box.data(Qt::ToolTipRole).toString().contains(expected));
    // Hosts without an agent say nothing of it.
    const QModelIndex r1 = hosts.index(hosts.rowOf(u"r1"_s));
    QCOMPARE(r1.data(HostTableModel::ProtocolNoticeRole).toString(), QString());
    QVERIFY(HostCardDelegate::detailLine(r1, now).startsWith(u"driver static"_s));

    // A window watching that relay from elsewhere reads it from /admin/hosts.
    QTemporaryDir dir;
    SystemClock clock;
    HistoryStore store(dir.filePath(u"watched.sqlite"_s), clock);
    RemoteRelayFeed feed(remote.relay->endpoint(), RemoteToken, &store);
    HostTableModel watching;
    QAbstractItemModelTester watchingTester(&watching);
    watching.setRemote(&feed);
    feed.start();
    QTRY_VERIFY_WITH_TIMEOUT(watching.rowOf(u"box"_s) >= 0, WaitMs);
    QTRY_COMPARE_WITH_TIMEOUT(watching.index(watching.rowOf(u"box"_s)).data(HostTableModel::ProtocolNoticeRole).toString(),
                              expected, WaitMs);
    QCOMPARE(HostCardDelegate::detailLine(watching.index(watching.rowOf(u"box"_s)), now), expected);
    QCOMPARE(watching.index(watching.rowOf(u"r1"_s)).data(HostTableModel::ProtocolNoticeRole).toString(), QString());
}

QTEST_MAIN(TstHostCardProtocol)
#include "tst_hostcardprotocol.moc"
