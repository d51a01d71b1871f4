// Issue 30 item 10: the window says the relay's English records (a host's "why it is down", a
// request's relay error, an add-a-box probe's failure) in the user's language. Once through a
// translator that marks every text it is asked for, so a record shown as it is stands out, and
// once with the German catalogue, as a German desktop gets it (last: it stays installed).
#include "germanwindow.h"

#include "catalog/hostprobe.h"
#include "hosts/recordedfacts.h"
#include "dialogs/addhostdialog.h"
#include "journal/requestrecord.h"
#include "replies/clientreplies.h"
#include "shared/recordwords.h"
#include "timeline/timelinetext.h"
#include "upstream/upstreamexchange.h"
#include "upstream/upstreampool.h"
#include "window/requestdetailspane.h"

#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>
#include <QTranslator>

using namespace switchyard;
using namespace Qt::StringLiterals;

namespace {

constexpr int WaitMs = 10000;

// Every text asked of it comes back «in marks», so a test sees which words went through tr().
class MarkingTranslator final : public QTranslator
{
public:
    using QTranslator::QTranslator;
    QString translate(const char *, const char *source, const char *, int) const override
    {
        return u"«"_s + QString::fromUtf8(source) + u"»"_s;
    }
    bool isEmpty() const override { return false; }
};

// A loopback port that was free a moment ago: nothing listens there.
quint16 closedPort()
{
    QTcpServer server;
    if (!server.listen(QHostAddress::LocalHost))
        return 0;
    return server.serverPort();
}

// What the upstream exchange records when an engine's port is closed: the record as it is made.
QString refusedRecord(quint16 port)
{
    UpstreamPool pool;
    UpstreamExchange::Request request;
    request.base = QUrl(u"http://127.0.0.1:%1"_s.arg(port));
    UpstreamExchange exchange(&pool, request);
    QSignalSpy failed(&exchange, &UpstreamExchange::failed);
    exchange.start();
    if (!failed.wait(WaitMs))
        return {};
    return failed.first().at(1).toString();
}

// A failed switch as the history keeps it: the engine's failure in English, and its facts.
EngineFailure exitedWithCode1()
{
    EngineFailure failure = EngineFailure::of(EngineFailure::Kind::Ended);
    failure.exit = EngineFailure::Exit{1, false};
    failure.outputTail = u"no such model file"_s;
    return failure;
}

TimelineContent::Span failedSwitch(const QJsonObject &facts)
{
    return {TimelineContent::Span::Kind::FailedSwitch, 0, 60000, false, u"fork"_s, exitedWithCode1().toString(), facts};
}

// The request a host refused because the switch failed, as the relay records it.
RequestRecord refusedRequest(bool withFacts)
{
    HostRefusal why;
    why.reason = HostRefusal::Reason::SwitchFailed;
    why.host = u"3090"_s;
    why.engine = u"fork"_s;
    why.failure = exitedWithCode1();
    const ClientReply reply = ClientReplies::fromHost(why);
    RequestRecord record;
    record.startedAt = QDateTime::currentDateTime();
    record.status = reply.status;
    record.relayError = reply.message;
    if (withFacts)
        record.relayFacts = reply.facts;
    return record;
}

} // namespace

class TstWindowWords : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void recordsGoThroughTr();
    void germanWindowSaysThemInGerman();
    void germanWindowWordsFactsNotSentences();
};

void TstWindowWords::recordsGoThroughTr()
{
    MarkingTranslator marks;
    QCoreApplication::installTranslator(&marks);
    const quint16 port = closedPort();
    QVERIFY(port);
    const QString refused = refusedRecord(port);
    QVERIFY2(!refused.isEmpty() && !refused.contains(u"«"_s), qPrintable(refused));

    // The records as their makers write them, each said through tr(), a nested reason too.
    QCOMPARE(RecordWords::say(refused), u"«the engine refused the connection»"_s);
    QCOMPARE(RecordWords::say(ClientReplies::hostDown(u"3090"_s, refused).message),
             u"«host 3090 is down: «the engine refused the connection»»"_s);
    const QStringList records{
        ClientReplies::engineUnreachable(refused).message,
        ClientReplies::upstreamSilent(u"the engine sent nothing for 0.8 s"_s).message,
        ClientReplies::upstreamFailedBeforeAnswering(refused).message,
        ClientReplies::streamBrokeOff(refused).message,
        ClientReplies::engineCouldNotLoad(u"out of memory"_s).message,
        ClientReplies::engineFailed(u"slot busy"_s).message,
        ClientReplies::unknownModel(u"x"_s, {u"a"_s}).message,
        ClientReplies::keyWrong().message,
        QString(RequestRecord::ClientLeftError),
        u"no connection within 0.3 s"_s,
        u"its model list (GET /models) answered with an error"_s,
    };
    for (const QString &record : records) {
        const QString said = RecordWords::say(record);
        QVERIFY2(said.startsWith(u"«"_s) && said.endsWith(u"»"_s), qPrintable(record + u" → "_s + said));
    }
    // An engine's own words are its own: shown as they came.
    QCOMPARE(RecordWords::say(u"llama says no"_s), u"llama says no"_s);

    // The timeline's tooltip of a down host, the details pane's relay error.
    const TimelineContent::Span down{TimelineContent::Span::Kind::Down, 0, 60000, false, {}, refused};
    const QString tooltip = TimelineText::spanTooltip(down, u"3090"_s, 120000);
    QVERIFY2(tooltip.contains(u"«the engine refused the connection»"_s), qPrintable(tooltip));
    RequestDetailsPane pane;
    RequestRecord record;
    record.startedAt = QDateTime::currentDateTime();
    record.status = 424;
    record.relayError = ClientReplies::hostDown(u"3090"_s, refused).message;
    pane.showRecord(record);
    QVERIFY2(pane.fieldText(u"error"_s).startsWith(u"«host 3090 is down"_s), qPrintable(pane.fieldText(u"error"_s)));

    // A failed switch and a refused request, worded from the facts the history keeps beside
    // their English; a row from before the facts were kept shows its English as stored.
    QCOMPARE(TimelineText::spanTooltip(failedSwitch(RecordedFacts::of(exitedWithCode1())), u"3090"_s, 120000)
                 .section(u"<br>"_s, 0, 0),
             u"«Switch to <b>fork</b> failed: «exited with code 1»: no such model file»"_s);
    QVERIFY(TimelineText::spanTooltip(failedSwitch({}), u"3090"_s, 120000)
                .startsWith(u"«Switch to <b>fork</b> failed: exited with code 1: no such model file»"_s));
    pane.showRecord(refusedRequest(true));
    QCOMPARE(pane.fieldText(u"error"_s), u"«switching host 3090 to engine fork failed: «exited with code 1»: no such model file»"_s);
    pane.showRecord(refusedRequest(false));
    QCOMPARE(pane.fieldText(u"error"_s), u"switching host 3090 to engine fork failed: exited with code 1: no such model file"_s);

    // A wake that timed out: the marker's detail from its facts; without them, as stored.
    HistoryEvent timedOut;
    timedOut.kind = HistoryEvent::Kind::WakeTimedOut;
    timedOut.at = QDateTime::currentDateTime();
    timedOut.host = u"3090"_s;
    timedOut.detail = u"no answer within 60 s"_s;
    HostRefusal notAwake;
    notAwake.reason = HostRefusal::Reason::WakeTimedOut;
    notAwake.host = u"3090"_s;
    notAwake.wakeTimeout = std::chrono::seconds(60);
    timedOut.facts = RecordedFacts::of(notAwake);
    const qint64 nowMs = timedOut.at.toMSecsSinceEpoch();
    QVERIFY2(TimelineText::markerTooltip(timedOut, nowMs).endsWith(u"<br>«no answer within «60 s»»"_s),
             qPrintable(TimelineText::markerTooltip(timedOut, nowMs)));
    timedOut.facts = {};
    QVERIFY2(TimelineText::markerTooltip(timedOut, nowMs).endsWith(u"<br>no answer within 60 s"_s),
             qPrintable(TimelineText::markerTooltip(timedOut, nowMs)));

    // The add dialog's probe of a closed port says why in the window's words, not the record's.
    QTemporaryDir dir;
    AddHostDialog dialog(dir.filePath(u"switchyard.json"_s));
    dialog.urlField()->setText(u"http://127.0.0.1:%1"_s.arg(port));
    dialog.check();
    QTRY_VERIFY_WITH_TIMEOUT(!dialog.probe()->isRunning(), WaitMs);
    const QString findings = dialog.findings()->text();
    QVERIFY2(findings.contains(u"«the connection was refused"_s) && !findings.contains(refused), qPrintable(findings));
    QCoreApplication::removeTranslator(&marks);
}

void TstWindowWords::germanWindowSaysThemInGerman()
{
    QVERIFY2(test::useGerman(QStringLiteral(SWITCHYARD_QM_DIR)), SWITCHYARD_QM_DIR);
    const quint16 port = closedPort();
    QVERIFY(port);
    const QString refused = refusedRecord(port);
    QCOMPARE(refused, u"the engine refused the connection"_s);   // the record stays English

    const TimelineContent::Span down{TimelineContent::Span::Kind::Down, 0, 60000, false, {}, refused};
    const QString tooltip = TimelineText::spanTooltip(down, u"3090"_s, 120000);
    QVERIFY2(!tooltip.contains(u"refused"_s), qPrintable(tooltip));

    RequestDetailsPane pane;
    RequestRecord record;
    record.startedAt = QDateTime::currentDateTime();
    record.status = 424;
    record.relayError = ClientReplies::hostDown(u"3090"_s, refused).message;
    pane.showRecord(record);
    const QString error = pane.fieldText(u"error"_s);
    QVERIFY2(error.contains(u"3090"_s) && !error.contains(u"is down"_s) && !error.contains(u"refused"_s), qPrintable(error));

    QTemporaryDir dir;
    AddHostDialog dialog(dir.filePath(u"switchyard.json"_s));
    dialog.urlField()->setText(u"http://127.0.0.1:%1"_s.arg(port));
    dialog.check();
    QTRY_VERIFY_WITH_TIMEOUT(!dialog.probe()->isRunning(), WaitMs);
    const QString findings = dialog.findings()->text();
    QVERIFY2(!findings.contains(u"refused"_s) && !findings.contains(u"Nothing answers"_s), qPrintable(findings));
}

// A failed switch on a German desktop (issue 34): the timeline's tooltip and the refused
// request's error come from the facts the history keeps, not from the English beside them.
// Last: it runs with the German catalogue, which germanWindowSaysThemInGerman installed.
void TstWindowWords::germanWindowWordsFactsNotSentences()
{
    QCOMPARE(QLocale().language(), QLocale::German);
    const QString tooltip
        = TimelineText::spanTooltip(failedSwitch(RecordedFacts::of(exitedWithCode1())), u"3090"_s, 120000);
    QCOMPARE(tooltip.section(u"<br>"_s, 0, 0),
             u"Wechsel zu <b>fork</b> fehlgeschlagen: endete mit Code 1: no such model file"_s);
    // An older row, without facts: its stored words, as they are.
    QCOMPARE(TimelineText::spanTooltip(failedSwitch({}), u"3090"_s, 120000).section(u"<br>"_s, 0, 0),
             u"Wechsel zu <b>fork</b> fehlgeschlagen: exited with code 1: no such model file"_s);

    RequestDetailsPane pane;
    pane.showRecord(refusedRequest(true));
    const QString error = pane.fieldText(u"error"_s);
    QVERIFY2(error.contains(u"endete mit Code 1: no such model file"_s) && !error.contains(u"exited"_s), qPrintable(error));
}

QTEST_MAIN(TstWindowWords)
#include "tst_windowwords.moc"
