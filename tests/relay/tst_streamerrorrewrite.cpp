// An engine's error event inside a chat-completions stream goes on in words no client sends the
// turn again for; every other byte passes unchanged, however the stream is cut into pieces.
#include "relay/streamerrorrewrite.h"
#include "replies/retrywords.h"

#include <QTest>

using namespace switchyard;
using namespace Qt::StringLiterals;

class TestStreamErrorRewrite final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void rewritesInAnyPieces_data();
    void rewritesInAnyPieces();
};

namespace {

const QByteArray Tokens = "data: {\"choices\":[{\"delta\":{\"content\":\"tok0\"}}]}\n\n"
                          ": a comment\n\n"
                          "data: {\"choices\":[{\"delta\":{\"content\":\"tok1\"}}]}\n\n";

// The stream fed in pieces of `size` bytes, as the upstream's reads may cut it.
QByteArray passThrough(const QByteArray &stream, qsizetype size, bool *rewrote)
{
    StreamErrorRewrite rewrite;
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

QTEST_GUILESS_MAIN(TestStreamErrorRewrite)
#include "tst_streamerrorrewrite.moc"
