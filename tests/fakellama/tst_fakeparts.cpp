// The fake llama.cpp router's building blocks: JSON syntax errors as the real
// llama-server words them, the prompt estimate, and the command line's options.
#include "tst_fakeparts.h"

#include "fakejsonsyntax.h"
#include "fakellamaserver.h"
#include "fakeinferencerequest.h"
#include "fakeoptions.h"
#include "rawhttpclient.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

#include "fakellamatesthelpers.h"

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using namespace switchyard::fake;
using namespace fakellamatest;

// ---- building blocks ------------------------------------------------------------

// What the real llama-server (v0.5.0, de3ff81) answered to these bodies on /v1/chat/completions
// and /models/load: nlohmann::json's parse errors, word for word.
void tst_FakeParts::jsonSyntax_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QString>("message");   // empty: valid JSON
    const QString p = u"[json.exception.parse_error.101] parse error at "_s;
    QTest::newRow("empty") << QByteArray()
        << p + u"line 1, column 1: attempting to parse an empty input; check that your input string or stream contains the expected JSON"_s;
    QTest::newRow("blanks") << QByteArray("  ")
        << p + u"line 1, column 3: syntax error while parsing value - unexpected end of input; expected '[', '{', or a literal"_s;
    QTest::newRow("cut value") << QByteArray(R"({"model":)")
        << p + u"line 1, column 10: syntax error while parsing value - unexpected end of input; expected '[', '{', or a literal"_s;
    QTest::newRow("cut on line 3") << QByteArray("{\n\"model\":\n")
        << p + u"line 3, column 1: syntax error while parsing value - unexpected end of input; expected '[', '{', or a literal"_s;
    QTest::newRow("cut key") << QByteArray(R"({"model":"tiny-llama-a",)")
        << p + u"line 1, column 25: syntax error while parsing object key - unexpected end of input; expected string literal"_s;
    QTest::newRow("bad literal") << QByteArray(R"({"model": x})")
        << p + u"line 1, column 11: syntax error while parsing value - invalid literal; last read: '\"model\": x'"_s;
    QTest::newRow("trailing") << QByteArray(R"({"model":"tiny-llama-a"} x)")
        << p + u"line 1, column 26: syntax error while parsing value - invalid literal; last read: '\"tiny-llama-a\"} x'; expected end of input"_s;
    QTest::newRow("tru") << QByteArray(R"({"a":tru})")
        << p + u"line 1, column 9: syntax error while parsing value - invalid literal; last read: '\"a\":tru}'"_s;
    QTest::newRow("open string") << QByteArray(R"({"a":"abc)")
        << p + u"line 1, column 10: syntax error while parsing value - invalid string: missing closing quote; last read: '\"abc'"_s;
    QTest::newRow("no colon") << QByteArray(R"({"a" 1})")
        << p + u"line 1, column 6: syntax error while parsing object separator - unexpected number literal; expected ':'"_s;
    QTest::newRow("cut object") << QByteArray(R"({"a":1 )")
        << p + u"line 1, column 8: syntax error while parsing object - unexpected end of input; expected '}'"_s;
    QTest::newRow("cut array value") << QByteArray("[1,")
        << p + u"line 1, column 4: syntax error while parsing value - unexpected end of input; expected '[', '{', or a literal"_s;
    QTest::newRow("cut array") << QByteArray("[1 ")
        << p + u"line 1, column 4: syntax error while parsing array - unexpected end of input; expected ']'"_s;
    QTest::newRow("minus") << QByteArray(R"({"a":-})")
        << p + u"line 1, column 7: syntax error while parsing value - invalid number; expected digit after '-'; last read: '-}'"_s;
    QTest::newRow("point") << QByteArray(R"({"a":1.})")
        << p + u"line 1, column 8: syntax error while parsing value - invalid number; expected digit after '.'; last read: '1.}'"_s;
    QTest::newRow("raw newline") << QByteArray("{\"a\":\"\n\"}")
        << p + u"line 2, column 0: syntax error while parsing value - invalid string: control character U+000A (LF) must be escaped to \\u000A or \\n; last read: '\"<U+000A>'"_s;
    QTest::newRow("bad escape") << QByteArray(R"({"a":"\q"})")
        << p + u"line 1, column 8: syntax error while parsing value - invalid string: forbidden character after backslash; last read: '\"\\q'"_s;
    QTest::newRow("key is a literal") << QByteArray("{x")
        << p + u"line 1, column 2: syntax error while parsing object key - invalid literal; last read: '{x'; expected string literal"_s;
    QTest::newRow("comma brace") << QByteArray(R"({"a":1,})")
        << p + u"line 1, column 8: syntax error while parsing object key - unexpected '}'; expected string literal"_s;
    QTest::newRow("two values") << QByteArray(R"({"a":1 2})")
        << p + u"line 1, column 8: syntax error while parsing object - unexpected number literal; expected '}'"_s;
    QTest::newRow("close first") << QByteArray("]")
        << p + u"line 1, column 1: syntax error while parsing value - unexpected ']'; expected '[', '{', or a literal"_s;
    // A cut UTF-8 sequence: one U+FFFD where the real one writes one.
    QTest::newRow("cut UTF-8") << QByteArray("{\"model\":\"no-such\",\"messages\":[{\"content\":\"h\xc3\xa9llo \xe4\x96\xe7\x95\x8c\"}]}")
        << p + u"line 1, column 53: syntax error while parsing value - invalid string: ill-formed UTF-8 byte; last read: '\"h\u00e9llo \ufffd\ufffd'"_s;
    QTest::newRow("number overflow") << QByteArray(R"({"a":[-1e999]})")
        << u"[json.exception.out_of_range.406] number overflow parsing '-1e999'"_s;
    QTest::newRow("long integer") << QByteArray(R"({"a":123456789012345678901234567890})") << QString();
    QTest::newRow("valid") << QByteArray(R"({"model":"x","a":[true,false,null,-0,1E+2,0.5e-1,"\u00e9\ud83d\ude00"]})") << QString();
    QTest::newRow("valid array") << QByteArray("[1]") << QString();
    QTest::newRow("valid string") << QByteArray(R"( "str" )") << QString();
}

void tst_FakeParts::jsonSyntax()
{
    QFETCH(QByteArray, body);
    QFETCH(QString, message);
    QCOMPARE(jsonSyntaxError(body).value_or(QString()), message);
}

void tst_FakeParts::promptEstimate_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<int>("tokens");
    QTest::newRow("chat string") << QByteArray(R"({"messages":[{"role":"user","content":"Hello there"}]})") << 12;
    QTest::newRow("chat parts")
        << QByteArray(R"({"messages":[{"role":"user","content":[{"type":"text","text":"one two three"}]}]})") << 13;
    QTest::newRow("anthropic system")
        << QByteArray(R"({"system":"be brief","messages":[{"role":"user","content":"Hello"}]})") << 13;
    QTest::newRow("prompt") << QByteArray(R"({"prompt":"a b c d"})") << 14;
    QTest::newRow("responses input") << QByteArray(R"({"input":"a b"})") << 12;
    QTest::newRow("empty") << QByteArray("{}") << 10;
}

void tst_FakeParts::promptEstimate()
{
    QFETCH(QByteArray, body);
    QFETCH(int, tokens);
    QCOMPARE(FakeInferenceRequest::estimatePromptTokens(jsonOf(body)), tokens);
}

void tst_FakeParts::parseOptions_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<QString>("errorPart");

    const QString p = u"switchyard-fakellama"_s;
    QTest::newRow("full") << QStringList{p, u"--port"_s, u"0"_s, u"--models"_s, u"a,b,c"_s, u"--load-ms"_s,
                                         u"10"_s, u"--tokens-per-s"_s, u"2.5"_s, u"--max-models"_s, u"2"_s,
                                         u"--ctx"_s, u"512"_s, u"--fail-load"_s, u"b"_s, u"--loaded"_s, u"a"_s,
                                         u"--loaded"_s, u"c"_s, u"--no-autoload"_s, u"--prefill-ms"_s, u"5"_s,
                                         u"--ping-ms"_s, u"7"_s, u"--reject-late-system"_s, u"--model-ctx"_s,
                                         u"b=64"_s}
                          << true << QString();
    QTest::newRow("no models") << QStringList{p, u"--port"_s, u"0"_s} << false << u"--models"_s;
    QTest::newRow("bad number") << QStringList{p, u"--models"_s, u"a"_s, u"--load-ms"_s, u"soon"_s} << false
                                << u"--load-ms"_s;
    QTest::newRow("big port") << QStringList{p, u"--models"_s, u"a"_s, u"--port"_s, u"70000"_s} << false
                              << u"--port"_s;
    QTest::newRow("unknown fail-load") << QStringList{p, u"--models"_s, u"a"_s, u"--fail-load"_s, u"z"_s} << false
                                       << u"--fail-load z"_s;
    QTest::newRow("single with two") << QStringList{p, u"--models"_s, u"a,b"_s, u"--single-model"_s} << false
                                     << u"exactly one"_s;
    QTest::newRow("unknown flag") << QStringList{p, u"--models"_s, u"a"_s, u"--bogus"_s} << false << u"bogus"_s;
}

void tst_FakeParts::parseOptions()
{
    QFETCH(QStringList, arguments);
    QFETCH(bool, ok);
    QFETCH(QString, errorPart);

    QString error;
    const FakeOptions options = parseFakeOptions(arguments, &error);
    QCOMPARE(error.isEmpty(), ok);
    if (!ok) {
        QVERIFY2(error.contains(errorPart), qPrintable(error));
        return;
    }
    QCOMPARE(options.models, (QStringList{u"a"_s, u"b"_s, u"c"_s}));
    QCOMPARE(options.loadDelay, 10ms);
    QCOMPARE(options.tokensPerSecond, 2.5);
    QCOMPARE(options.maxModels, 2);
    QCOMPARE(options.contextSize, 512);
    QCOMPARE(options.modelContext.value(u"b"_s), 64);
    QCOMPARE(options.failLoad, QStringList{u"b"_s});
    QCOMPARE(options.loaded, (QStringList{u"a"_s, u"c"_s}));
    QVERIFY(!options.autoload);
    QCOMPARE(options.prefillDelay, 5ms);
    QCOMPARE(options.pingInterval, 7ms);
    QVERIFY(options.rejectLateSystem);
    QVERIFY(!options.singleModel);
}

QTEST_GUILESS_MAIN(tst_FakeParts)
