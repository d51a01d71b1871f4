// Claude Code takes an error in its Messages stream as final only after a completed content
// block (docs/CLIENTS.md): MessagesStreamClose puts one, saying the error, before the engine's own
// error event or the relay's, after whatever the stream had started; every other byte passes
// unchanged, however the stream is cut into pieces.
#include "api/messagesstreamclose.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QTest>

using namespace switchyard;
using namespace Qt::StringLiterals;

class TestMessagesStreamClose final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void nothingSentYetStartsTheMessage();
    void anOpenBlockIsStoppedAndTheNextIndexUsed();
    void theEnginesErrorEventGetsTheBlockBeforeIt();
    void aStreamCutInsideALineEndsThatLineFirst();
    void anyPiecesGiveTheSameBytes();
};

namespace {

struct Event
{
    QByteArray name;
    QJsonObject data;
};

// The stream's events in order, read as an SSE parser reads them.
QList<Event> events(const QByteArray &stream)
{
    QList<Event> out;
    for (const QByteArray &frame : stream.split('\n')) {
        if (frame.startsWith("event: "))
            out.append({frame.sliced(7), {}});
        else if (frame.startsWith("data: ") && !out.isEmpty())
            out.last().data = QJsonDocument::fromJson(frame.sliced(6)).object();
    }
    return out;
}

QByteArray frame(const QByteArray &name, const QByteArray &json)
{
    return "event: " + name + "\ndata: " + json + "\n\n";
}

const QByteArray MessageStart =
    frame("message_start", R"({"type":"message_start","message":{"id":"msg_1","role":"assistant","content":[]}})");
const QByteArray TextOpen = frame("content_block_start", R"({"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}})")
    + frame("content_block_delta", R"({"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"tok0"}})");
const QByteArray EngineError = frame("error", R"({"code":500,"message":"bad template","type":"server_error"})");

QStringList names(const QList<Event> &list)
{
    QStringList out;
    for (const Event &e : list)
        out.append(QString::fromUtf8(e.name));
    return out;
}

QByteArray feedInPieces(const QByteArray &stream, QRandomGenerator &random)
{
    MessagesStreamClose close;
    QByteArray out;
    for (qsizetype at = 0; at < stream.size();) {
        const qsizetype n = std::min<qsizetype>(stream.size() - at, 1 + random.bounded(24));
        out += close.feed(stream.sliced(at, n));
        at += n;
    }
    return out + close.flush();
}

} // namespace

void TestMessagesStreamClose::nothingSentYetStartsTheMessage()
{
    MessagesStreamClose close;
    const QList<Event> got = events(close.beforeError(u"host box is down"_s));
    QCOMPARE(names(got), (QStringList{u"message_start"_s, u"content_block_start"_s, u"content_block_delta"_s,
                                       u"content_block_stop"_s}));
    QCOMPARE(got.at(1).data.value("index"_L1).toInt(), 0);
    QCOMPARE(got.at(2).data.value("delta"_L1).toObject().value("text"_L1).toString(), u"host box is down"_s);
    QCOMPARE(got.at(3).data.value("index"_L1).toInt(), 0);
    QCOMPARE(got.at(0).data.value("message"_L1).toObject().value("role"_L1).toString(), u"assistant"_s);
}

void TestMessagesStreamClose::anOpenBlockIsStoppedAndTheNextIndexUsed()
{
    MessagesStreamClose close;
    QCOMPARE(close.feed(MessageStart + TextOpen), MessageStart + TextOpen);
    const QList<Event> got = events(close.beforeError(u"upstream stream broke off"_s));
    QCOMPARE(names(got), (QStringList{u"content_block_stop"_s, u"content_block_start"_s, u"content_block_delta"_s,
                                       u"content_block_stop"_s}));
    QCOMPARE(got.at(0).data.value("index"_L1).toInt(), 0);
    QCOMPARE(got.at(1).data.value("index"_L1).toInt(), 1);
    QCOMPARE(got.at(3).data.value("index"_L1).toInt(), 1);
}

void TestMessagesStreamClose::theEnginesErrorEventGetsTheBlockBeforeIt()
{
    MessagesStreamClose close;
    const QByteArray out = close.feed(MessageStart + TextOpen + EngineError) + close.flush();
    QVERIFY2(out.startsWith(MessageStart + TextOpen), out.constData());
    QVERIFY2(out.endsWith(EngineError), out.constData());   // the engine's event itself, last
    const QList<Event> added = events(out.sliced((MessageStart + TextOpen).size()).chopped(EngineError.size()));
    QCOMPARE(names(added), (QStringList{u"content_block_stop"_s, u"content_block_start"_s, u"content_block_delta"_s,
                                         u"content_block_stop"_s}));
    QCOMPARE(added.at(2).data.value("delta"_L1).toObject().value("text"_L1).toString(), u"bad template"_s);
}

void TestMessagesStreamClose::aStreamCutInsideALineEndsThatLineFirst()
{
    MessagesStreamClose close;
    const QByteArray cut = (MessageStart + TextOpen).chopped(20);
    QCOMPARE(close.feed(cut), cut);   // nothing held: it cannot become "event: error"
    const QByteArray closing = close.beforeError(u"broke off"_s);
    QVERIFY2(closing.startsWith("\n\nevent: content_block_stop\n"), closing.constData());
}

void TestMessagesStreamClose::anyPiecesGiveTheSameBytes()
{
    // However the upstream's reads cut it, the client gets what the stream whole would give.
    const QByteArray withError = MessageStart + TextOpen + EngineError;
    const QByteArray clean = MessageStart + TextOpen
        + frame("content_block_stop", R"({"type":"content_block_stop","index":0})")
        + frame("message_stop", R"({"type":"message_stop"})") + ": keepalive\n\n";
    MessagesStreamClose whole;
    const QByteArray expected = whole.feed(withError) + whole.flush();
    const quint32 seed = QRandomGenerator::global()->generate();
    QRandomGenerator random(seed);
    for (int i = 0; i < 2000; ++i) {
        if (feedInPieces(withError, random) != expected)
            QFAIL(qPrintable(u"pieces of the stream with an error differ; replay with seed %1, round %2"_s.arg(seed).arg(i)));
        if (feedInPieces(clean, random) != clean)
            QFAIL(qPrintable(u"pieces of a clean stream changed; replay with seed %1, round %2"_s.arg(seed).arg(i)));
    }
}

QTEST_APPLESS_MAIN(TestMessagesStreamClose)
#include "tst_messagesstreamclose.moc"
