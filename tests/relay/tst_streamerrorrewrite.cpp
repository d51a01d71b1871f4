// An engine's error event inside a chat-completions stream goes on in words no client sends the
// turn again for; every other byte passes unchanged, however the stream is cut into pieces.
#include "relay/streamerrorrewrite.h"
#include "replies/retrywords.h"

#include <QJsonDocument>
#include <QJsonObject>

#include <QTest>

using namespace switchyard;
using namespace Qt::StringLiterals;

class TestStreamErrorRewrite final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void rewritesInAnyPieces_data();
    void rewritesInAnyPieces();
    void responsesEndWithAFailureCodexDoesNotRetry();
};

namespace {

const QByteArray Tokens = "data: {\"choices\":[{\"delta\":{\"content\":\"tok0\"}}]}\n\n"
                          ": a comment\n\n"
                          "data: {\"choices\":[{\"delta\":{\"content\":\"tok1\"}}]}\n\n";

// The stream fed in pieces of `size` bytes, as the upstream's reads may cut it.
QByteArray passThrough(const QByteArray &stream, qsizetype size, bool *rewrote, ApiShape shape = ApiShape::OpenAI)
{
    StreamErrorRewrite rewrite(shape);
    QByteArray out;
    for (qsizetype at = 0; at < stream.size(); at += size)
        out += rewrite.feed(stream.mid(at, size));
    out += rewrite.flush();
    *rewrote = rewrite.rewrote();
    return out;
}

} // namespace

void TestStreamErrorRewrite::rewritesInAnyPieces_data()
{
    QTest::addColumn<QByteArray>("stream");
    QTest::addColumn<QByteArray>("expected");

    QTest::newRow("tokens only") << Tokens << Tokens;
    QTest::newRow("llama.cpp's 500 after two tokens")
        << Tokens + "data: {\"error\":{\"code\":500,\"message\":\"fake: generation failed\",\"type\":\"server_error\"}}\n\n"
        << Tokens + "data: {\"error\":{\"code\":424,\"message\":\"fake: generation failed\",\"source\":\"switchyard\","
                    "\"type\":\"failed_dependency_error\"}}\n\n";
    QTest::newRow("a 503 says unavailable")
        << "data: {\"error\":{\"code\":503,\"message\":\"Loading model\",\"type\":\"unavailable_error\"}}\r\n\r\n"_ba
        << "data: {\"error\":{\"code\":424,\"message\":\"Loading model\",\"source\":\"switchyard\","
           "\"type\":\"failed_dependency_error\"}}\n\r\n"_ba;
    // Nothing but the engine's own words: it goes on as the engine sent it.
    const QByteArray plain = "data: {\"error\":{\"code\":400,\"message\":\"bad grammar\",\"type\":\"invalid_request_error\"}}\n\n";
    QTest::newRow("a 400 stays") << Tokens + plain << Tokens + plain;
    // A token whose text looks like an error event is text, not an event.
    const QByteArray quoted = "data: {\"choices\":[{\"delta\":{\"content\":\"data: {\\\"error\\\":500\"}}]}\n\n";
    QTest::newRow("a token that quotes an error") << quoted << quoted;
    QTest::newRow("cut off inside an error line") << Tokens + "data: {\"err"_ba << Tokens + "data: {\"err"_ba;
}

void TestStreamErrorRewrite::rewritesInAnyPieces()
{
    QFETCH(QByteArray, stream);
    QFETCH(QByteArray, expected);
    for (const qsizetype size : {qsizetype(1), qsizetype(3), qsizetype(7), qsizetype(64), stream.size()}) {
        bool rewrote = false;
        const QByteArray out = passThrough(stream, size, &rewrote);
        QVERIFY2(out == expected, qPrintable(u"pieces of %1: %2"_s.arg(size).arg(QString::fromUtf8(out))));
        QCOMPARE(rewrote, out != stream);
        if (rewrote)
            QVERIFY2(!RetryWords::presentInStream(QString::fromUtf8(out)), out.constData());
    }
}

// On /v1/responses every error event of the engine's becomes a response.failed whose code Codex
// does not retry (it sent the request six times for llama.cpp's event), after the engine's own
// "event: error" line if there was one; a 400 keeps its number.
void TestStreamErrorRewrite::responsesEndWithAFailureCodexDoesNotRetry()
{
    const QByteArray delta = "event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\",\"delta\":\"tok0\"}\n\n";
    // With or without the event line; the error object wrapped or, after "event: error", bare
    // (llama.cpp's and the fake's form on /v1/responses).
    for (const int code : {500, 400}) {
        const QByteArray object = "{\"code\":" + QByteArray::number(code) + ",\"message\":\"fake: generation failed\",\"type\":\"server_error\"}";
        const QByteArray wrapped = "data: {\"error\":" + object + "}\n\n";
        const QList<QPair<QByteArray, QByteArray>> forms = {
            {QByteArray(), wrapped}, {"event: error\n", wrapped}, {"event: error\n", "data: " + object + "\n\n"}};
        for (const auto &[eventLine, dataLine] : forms) {
            const QByteArray engine = delta + eventLine + dataLine;
            for (const qsizetype size : {qsizetype(1), qsizetype(5), engine.size()}) {
                bool rewrote = false;
                const QByteArray out = passThrough(engine, size, &rewrote, ApiShape::Responses);
                QVERIFY(rewrote);
                QVERIFY2(out.startsWith(delta + eventLine + "data: {"), out.constData());
                constexpr QByteArrayView FailedEvent = "event: response.failed\ndata: ";
                const qsizetype failedAt = out.indexOf(FailedEvent);
                QVERIFY2(failedAt > 0 && out.endsWith("\n\n"), out.constData());
                const QJsonObject failed = QJsonDocument::fromJson(out.sliced(failedAt + FailedEvent.size()).trimmed()).object();
                const QJsonObject error = failed.value("response"_L1).toObject().value("error"_L1).toObject();
                QCOMPARE(error.value("code"_L1).toString(), u"invalid_prompt"_s);
                QCOMPARE(error.value("message"_L1).toString(), u"fake: generation failed"_s);
                QVERIFY2(!out.contains("server_error") && !out.contains("\"code\":500"), out.constData());
                QCOMPARE(out.count("event: error\n"), eventLine.isEmpty() ? 0 : 1);
            }
        }
    }
    // An event of another name passes as it came.
    const QByteArray other = delta + "event: response.completed\ndata: {\"type\":\"response.completed\"}\n\n";
    for (const qsizetype size : {qsizetype(1), qsizetype(4), other.size()}) {
        bool rewrote = false;
        QCOMPARE(passThrough(other, size, &rewrote, ApiShape::Responses), other);
        QVERIFY(!rewrote);
    }
}

QTEST_GUILESS_MAIN(TestStreamErrorRewrite)
#include "tst_streamerrorrewrite.moc"
