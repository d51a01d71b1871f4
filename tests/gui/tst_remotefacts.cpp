// Issue 34 on a window watching a relay elsewhere: a failed switch there is worded here in the
// user's language from the facts the admin API carries (last_failure, an event's facts, a
// request's relay_facts), exactly as the relay's own window words them: the host card's down
// reason, the timeline's tooltip and the details pane's error. Under the German catalogue.
#include "app/remoterelayfeed.h"
#include "germanwindow.h"
#include "models/hosttablemodel.h"
#include "rawhttpclient.h"
#include "remoterelayfixture.h"
#include "store/historystore.h"
#include "store/requestquery.h"
#include "store/timelinemodel.h"
#include "timeline/timelinecontent.h"
#include "timeline/timelinetext.h"
#include "window/requestdetailspane.h"

#include <QAbstractItemModelTester>
#include <QTcpServer>
#include <QTest>

using namespace switchyard;
using namespace switchyard::test;
using namespace Qt::StringLiterals;

namespace {

constexpr int WaitMs = 15000;

quint16 freePort()
{
    QTcpServer probe;
    probe.listen(QHostAddress::LocalHost, 0);
    return probe.serverPort();
}

// A local host "box" on the watched relay, whose engine "broken" exits 1 when started.
void addFailingBox(Config &config, const QString &stateDir)
{
    EngineConfig engine;
    engine.name = u"broken"_s;
    engine.url = QUrl(u"http://127.0.0.1:%1"_s.arg(freePort()));
    engine.models = {u"m"_s};
    engine.argv = {u"/bin/sh"_s, u"-c"_s, u"echo no such model file >&2; exit 1"_s};
    HostConfig box;
    box.name = u"box"_s;
    box.driver = u"local"_s;
    box.engines = {engine};
    config.hosts.append(box);
    config.stateDir = stateDir;
}

std::optional<HistoryEvent> switchFailed(HistoryStore &store)
{
    for (const HistoryEvent &e : store.events(QDateTime())) {
        if (e.kind == HistoryEvent::Kind::SwitchFailed)
            return e;
    }
    return std::nullopt;
}

std::optional<RequestRecord> refused(HistoryStore &store)
{
    for (const RequestRecord &r : store.requests(RequestQuery{})) {
        if (r.status == 424)
            return r;
    }
    return std::nullopt;
}

} // namespace

class TstRemoteFacts : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void aFailedSwitchElsewhereIsWordedHere();
};

void TstRemoteFacts::initTestCase()
{
    QVERIFY2(useGerman(QStringLiteral(SWITCHYARD_QM_DIR)), SWITCHYARD_QM_DIR);
}

void TstRemoteFacts::aFailedSwitchElsewhereIsWordedHere()
{
    QTemporaryDir state;
    QVERIFY(state.isValid());
    RemoteRelay remote;
    QVERIFY(remote.start(GuiFleet::defaultH2(), [&](Config &config) { addFailingBox(config, state.path()); }));

    QTemporaryDir dir;
    SystemClock clock;
    HistoryStore store(dir.filePath(u"watched.sqlite"_s), clock);
    RemoteRelayFeed feed(remote.relay->endpoint(), RemoteToken, &store);
    HostTableModel watching;
    QAbstractItemModelTester tester(&watching);
    watching.setRemote(&feed);
    feed.start();
    QTRY_VERIFY_WITH_TIMEOUT(watching.rowOf(u"box"_s) >= 0, WaitMs);

    RawHttpClient client(remote.relay->endpoint().port());
    QVERIFY(client.connectToServer());
    client.send(RawHttpClient::post("/v1/chat/completions",
                                    R"({"model":"box-m","max_tokens":4,"messages":[{"role":"user","content":"hi"}]})"));
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 1, WaitMs);
    QCOMPARE(client.responses().first().status, 424);

    // The card: down, and why in German, from last_failure (the relay sent English beside it).
    const auto cardText = [&watching] {
        return watching.index(watching.rowOf(u"box"_s)).data(HostTableModel::ActivityTextRole).toString();
    };
    QTRY_VERIFY2_WITH_TIMEOUT(cardText().contains(u"endete mit Code 1: no such model file"_s), qPrintable(cardText()), WaitMs);
    QCOMPARE(watching.activity(watching.rowOf(u"box"_s)), HostActivity::Down);
    QVERIFY2(!cardText().contains(u"exited"_s), qPrintable(cardText()));

    // The timeline's failed switch, from the event copied with its facts.
    QTRY_VERIFY_WITH_TIMEOUT(switchFailed(store) && !switchFailed(store)->facts.isEmpty(), WaitMs);
    TimelineModel events;
    events.loadFrom(store, QDateTime::currentDateTime().addSecs(-3600));
    TimelineContent content;
    content.setEvents(&events);
    const qint64 nowMs = QDateTime::currentMSecsSinceEpoch() + 1000;
    std::optional<TimelineContent::Span> failedSpan;
    for (const TimelineContent::Span &s : content.spans(u"box"_s, nowMs - 3600 * 1000, nowMs)) {
        if (s.kind == TimelineContent::Span::Kind::FailedSwitch)
            failedSpan = s;
    }
    QVERIFY(failedSpan);
    QCOMPARE(TimelineText::spanTooltip(*failedSpan, u"box"_s, nowMs).section(u"<br>"_s, 0, 0),
             u"Wechsel zu <b>broken</b> fehlgeschlagen: endete mit Code 1: no such model file"_s);

    // The refused request's error in the details pane, from its relay_facts.
    QTRY_VERIFY_WITH_TIMEOUT(refused(store) && !refused(store)->relayFacts.isEmpty(), WaitMs);
    RequestDetailsPane pane;
    pane.showRecord(*refused(store));
    const QString error = pane.fieldText(u"error"_s);
    QVERIFY2(error.contains(u"endete mit Code 1: no such model file"_s) && !error.contains(u"exited"_s), qPrintable(error));
}

QTEST_MAIN(TstRemoteFacts)
#include "tst_remotefacts.moc"
