#include "common/jsontext.h"
#include "common/jsonwriter.h"

#include <QTest>

#include <limits>

using namespace switchyard;
using namespace Qt::StringLiterals;

// The one JSON writer (common/): what the config files, the client-config exports and the fake
// router's answers are all written with, so each of them stays byte for byte what it was.
class TestJsonWriter : public QObject
{
    Q_OBJECT

private slots:
    void quote_data();
    void quote();
    void everyControlCharacterEscaped();
    void number_data();
    void number();
    void real_data();
    void real();
    void keysKeepTheirOrder();
    void compactNesting();
    void indentedNesting();
    void emptyContainers_data();
    void emptyContainers();
    void scalarsAndRaw();
    void takeStartsAgain();
};

void TestJsonWriter::quote_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QByteArray>("expected");
    QTest::newRow("plain") << u"abc"_s << QByteArray(R"("abc")");
    QTest::newRow("empty") << QString() << QByteArray(R"("")");
    QTest::newRow("quote and backslash") << u"a\"b\\c"_s << QByteArray(R"("a\"b\\c")");
    QTest::newRow("slash is left alone") << u"a/b"_s << QByteArray(R"("a/b")");
    QTest::newRow("two-character escapes")
        << u"\b\f\n\r\t"_s << QByteArray(R"("\b\f\n\r\t")");
    QTest::newRow("other controls as \\u00XX, lower case")
        << QString(QChar(0x00)) + QChar(0x01) + QChar(0x1b) + QChar(0x1f)
        << QByteArray(R"("\u0000\u0001\u001b\u001f")");
    QTest::newRow("DEL is not a control to JSON") << QString(QChar(0x7f)) << QByteArray("\"\x7f\"");
    QTest::newRow("accents stay UTF-8") << u"Grüße é"_s << QByteArray("\"Gr\xc3\xbc\xc3\x9f" "e \xc3\xa9\"");
    QTest::newRow("astral plane stays UTF-8") << u"\U0001F600"_s << QByteArray("\"\xf0\x9f\x98\x80\"");
    QTest::newRow("line separator stays UTF-8") << u"\u2028"_s << QByteArray("\"\xe2\x80\xa8\"");
}

void TestJsonWriter::quote()
{
    QFETCH(QString, text);
    QFETCH(QByteArray, expected);
    QCOMPARE(JsonText::quote(text), expected);
    QCOMPARE(JsonWriter().string(text).take(), expected);
}

void TestJsonWriter::everyControlCharacterEscaped()
{
    for (char16_t c = 0; c < 0x20; ++c) {
        const QByteArray quoted = JsonText::quote(QString(QChar(c)));
        QVERIFY2(quoted.size() == 4 || quoted.size() == 8, quoted.constData());
        QCOMPARE(quoted.at(1), '\\');
        for (const char byte : quoted)
            QVERIFY2(static_cast<unsigned char>(byte) >= 0x20, quoted.constData());
    }
}

void TestJsonWriter::number_data()
{
    QTest::addColumn<double>("value");
    QTest::addColumn<QByteArray>("expected");
    QTest::newRow("zero") << 0.0 << QByteArray("0");
    QTest::newRow("negative zero") << -0.0 << QByteArray("0");
    QTest::newRow("whole") << 42.0 << QByteArray("42");
    QTest::newRow("negative whole") << -7.0 << QByteArray("-7");
    QTest::newRow("largest exact whole") << 9007199254740991.0 << QByteArray("9007199254740991");
    QTest::newRow("2^53, past exact wholes, by its shortest digits") << 9007199254740992.0 << QByteArray("9007199254740992");
    QTest::newRow("shortest fraction") << 0.1 << QByteArray("0.1");
    QTest::newRow("fraction") << 0.7 << QByteArray("0.7");
    QTest::newRow("large") << 1e300 << QByteArray("1e+300");
    QTest::newRow("NaN") << std::numeric_limits<double>::quiet_NaN() << QByteArray("null");
    QTest::newRow("infinity") << std::numeric_limits<double>::infinity() << QByteArray("null");
}

void TestJsonWriter::number()
{
    QFETCH(double, value);
    QFETCH(QByteArray, expected);
    QCOMPARE(JsonText::number(value), expected);
    QCOMPARE(JsonWriter().number(value).take(), expected);
}

// The fake router's numbers, as llama-server (nlohmann::json) writes a double.
void TestJsonWriter::real_data()
{
    QTest::addColumn<double>("value");
    QTest::addColumn<QByteArray>("expected");
    QTest::newRow("zero") << 0.0 << QByteArray("0.0");
    QTest::newRow("whole") << 1.0 << QByteArray("1.0");
    QTest::newRow("negative whole") << -1.0 << QByteArray("-1.0");
    QTest::newRow("float widened") << double(0.8f) << QByteArray("0.800000011920929");
    QTest::newRow("rate") << 1587.4695734998413 << QByteArray("1587.4695734998413");
    QTest::newRow("large") << 1e20 << QByteArray("1e+20");
    QTest::newRow("NaN") << std::numeric_limits<double>::quiet_NaN() << QByteArray("null");
    QTest::newRow("minus infinity") << -std::numeric_limits<double>::infinity() << QByteArray("null");
}

void TestJsonWriter::real()
{
    QFETCH(double, value);
    QFETCH(QByteArray, expected);
    QCOMPARE(JsonText::real(value), expected);
    QCOMPARE(JsonWriter().real(value).take(), expected);
}

void TestJsonWriter::keysKeepTheirOrder()
{
    JsonWriter json;
    json.beginObject().key("zeta").integer(1).key("alpha").integer(2).key(u"mü"_s).integer(3);
    json.key("alpha").integer(4).endObject();   // a duplicate is written as given
    QCOMPARE(json.take(), QByteArray("{\"zeta\":1,\"alpha\":2,\"m\xc3\xbc\":3,\"alpha\":4}"));
}

void TestJsonWriter::compactNesting()
{
    JsonWriter json;
    json.beginObject();
    json.key("a").beginArray().integer(1).beginObject().key("b").null().endObject().beginArray().endArray().endArray();
    json.key("c").beginObject().key("d").beginObject().key("e").string("f").endObject().endObject();
    json.key("g").boolean(false);
    json.endObject();
    QCOMPARE(json.take(), QByteArray(R"({"a":[1,{"b":null},[]],"c":{"d":{"e":"f"}},"g":false})"));
}

void TestJsonWriter::indentedNesting()
{
    JsonWriter json(JsonWriter::Layout::Indented);
    json.beginObject();
    json.key("a").beginArray().integer(1).beginObject().key("b").null().endObject().endArray();
    json.key("c").beginObject().endObject();
    json.key("d").beginArray().endArray();
    json.key("e").beginObject().key("f").beginArray().string("g").endArray().endObject();
    json.endObject();
    QCOMPARE(json.take(), QByteArray("{\n"
                                     "  \"a\": [\n"
                                     "    1,\n"
                                     "    {\n"
                                     "      \"b\": null\n"
                                     "    }\n"
                                     "  ],\n"
                                     "  \"c\": {},\n"
                                     "  \"d\": [],\n"
                                     "  \"e\": {\n"
                                     "    \"f\": [\n"
                                     "      \"g\"\n"
                                     "    ]\n"
                                     "  }\n"
                                     "}"));
}

void TestJsonWriter::emptyContainers_data()
{
    QTest::addColumn<JsonWriter::Layout>("layout");
    QTest::newRow("compact") << JsonWriter::Layout::Compact;
    QTest::newRow("indented") << JsonWriter::Layout::Indented;
}

void TestJsonWriter::emptyContainers()
{
    QFETCH(JsonWriter::Layout, layout);
    QCOMPARE(JsonWriter(layout).beginObject().endObject().take(), QByteArray("{}"));
    QCOMPARE(JsonWriter(layout).beginArray().endArray().take(), QByteArray("[]"));
    const QByteArray nested = JsonWriter(layout).beginArray().beginArray().endArray().endArray().take();
    QCOMPARE(nested, layout == JsonWriter::Layout::Compact ? QByteArray("[[]]") : QByteArray("[\n  []\n]"));
}

void TestJsonWriter::scalarsAndRaw()
{
    JsonWriter json;
    json.beginArray().integer(-9007199254740993).boolean(true).null().raw(R"({"x":1})").string("s").endArray();
    QCOMPARE(json.take(), QByteArray(R"([-9007199254740993,true,null,{"x":1},"s"])"));
}

void TestJsonWriter::takeStartsAgain()
{
    JsonWriter json;
    json.beginObject().key("a").integer(1).endObject();
    QCOMPARE(json.take(), QByteArray(R"({"a":1})"));
    json.beginArray().integer(2).endArray();
    QCOMPARE(json.take(), QByteArray("[2]"));
}

QTEST_GUILESS_MAIN(TestJsonWriter)
#include "tst_jsonwriter.moc"
