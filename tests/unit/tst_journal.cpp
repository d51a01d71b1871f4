#include "journal/journalformat.h"
#include "journal/requestrecord.h"

#include <QTest>

#include <limits>

using namespace switchyard;
using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using std::chrono::nanoseconds;

Q_DECLARE_METATYPE(std::chrono::nanoseconds)

namespace {

QDateTime local(int h, int m, int s, int ms = 0)
{
    return QDateTime(QDate(2026, 10, 24), QTime(h, m, s, ms));
}

// The request behind the seed's journal line for the first load of 3090-flint-40b.
RequestRecord seedLoad()
{
    RequestRecord r;
    r.startedAt = local(22, 21, 38, 674);
    r.method = u"POST"_s;
    r.path = u"/models/load"_s;
    r.model = u"3090-flint-40b"_s;
    r.host = u"3090"_s;
    r.engine = u"fork"_s;
    r.status = 200;
    r.bytesOut = 16;
    r.duration = 2326ms;
    r.clientAddress = u"192.0.2.10"_s;
    r.userAgent = u"Python-urllib/3.14"_s;
    return r;
}

} // namespace

class TestJournal : public QObject
{
    Q_OBJECT

private slots:
    void goDuration_data();
    void goDuration();
    void requestDuration_data();
    void requestDuration();
    void quote_data();
    void quote();
    void quoteBytes_data();
    void quoteBytes();
    void clientAddress_data();
    void clientAddress();
    void requestLine_data();
    void requestLine();
    void hostileValuesStayOneLine();
    void eventLine_data();
    void eventLine();
};

void TestJournal::goDuration_data()
{
    QTest::addColumn<nanoseconds>("d");
    QTest::addColumn<QString>("expected");

    // Expected values are what Go's time.Duration.String() prints.
    QTest::newRow("0") << nanoseconds(0) << u"0s"_s;
    QTest::newRow("1ns") << nanoseconds(1) << u"1ns"_s;
    QTest::newRow("999ns") << nanoseconds(999) << u"999ns"_s;
    QTest::newRow("1.5us") << nanoseconds(1500) << u"1.5\u00b5s"_s;
    QTest::newRow("500us") << nanoseconds(500us) << u"500\u00b5s"_s;
    QTest::newRow("1ms") << nanoseconds(1ms) << u"1ms"_s;
    QTest::newRow("1.4ms") << nanoseconds(1400us) << u"1.4ms"_s;
    QTest::newRow("1.000001ms") << nanoseconds(1000001) << u"1.000001ms"_s;
    QTest::newRow("423ms") << nanoseconds(423ms) << u"423ms"_s;
    QTest::newRow("1s") << nanoseconds(1s) << u"1s"_s;
    QTest::newRow("2.326s") << nanoseconds(2326ms) << u"2.326s"_s;
    QTest::newRow("61.5s") << nanoseconds(61500ms) << u"1m1.5s"_s;
    QTest::newRow("62.5s") << nanoseconds(62500ms) << u"1m2.5s"_s;
    QTest::newRow("3600s") << nanoseconds(3600s) << u"1h0m0s"_s;
    QTest::newRow("1h2m3.004005006s") << nanoseconds(1h + 2min + 3s + 4ms + 5us + 6ns) << u"1h2m3.004005006s"_s;
    QTest::newRow("100h") << nanoseconds(100h) << u"100h0m0s"_s;
    QTest::newRow("-1ns") << nanoseconds(-1) << u"-1ns"_s;
    QTest::newRow("-1.5s") << nanoseconds(-1500ms) << u"-1.5s"_s;
    QTest::newRow("max") << nanoseconds(std::numeric_limits<qint64>::max()) << u"2562047h47m16.854775807s"_s;
    QTest::newRow("min") << nanoseconds(std::numeric_limits<qint64>::min()) << u"-2562047h47m16.854775808s"_s;
}

void TestJournal::goDuration()
{
    QFETCH(nanoseconds, d);
    QFETCH(QString, expected);
    QCOMPARE(JournalFormat::goDuration(d), expected);
}

void TestJournal::requestDuration_data()
{
    QTest::addColumn<nanoseconds>("d");
    QTest::addColumn<QString>("expected");

    // Go's d.Round(time.Millisecond).String(), as the seed journal prints "dur=".
    QTest::newRow("0") << nanoseconds(0) << u"0s"_s;
    QTest::newRow("200us") << nanoseconds(200us) << u"0s"_s;
    QTest::newRow("499.999us") << nanoseconds(499999) << u"0s"_s;
    QTest::newRow("500us") << nanoseconds(500us) << u"1ms"_s;
    QTest::newRow("1ms") << nanoseconds(1ms) << u"1ms"_s;
    QTest::newRow("1.4ms") << nanoseconds(1400us) << u"1ms"_s;
    QTest::newRow("1.5ms") << nanoseconds(1500us) << u"2ms"_s;
    QTest::newRow("423ms") << nanoseconds(423ms) << u"423ms"_s;
    QTest::newRow("423.4ms") << nanoseconds(423400us) << u"423ms"_s;
    QTest::newRow("2.326s") << nanoseconds(2326ms) << u"2.326s"_s;
    QTest::newRow("2.3257s") << nanoseconds(2325700us) << u"2.326s"_s;
    QTest::newRow("61.5s") << nanoseconds(61500ms) << u"1m1.5s"_s;
    QTest::newRow("3600s") << nanoseconds(3600s) << u"1h0m0s"_s;
    QTest::newRow("-499us") << nanoseconds(-499us) << u"0s"_s;
    QTest::newRow("-500us") << nanoseconds(-500us) << u"-1ms"_s;
    QTest::newRow("max saturates") << nanoseconds(std::numeric_limits<qint64>::max()) << u"2562047h47m16.854775807s"_s;
}

void TestJournal::requestDuration()
{
    QFETCH(nanoseconds, d);
    QFETCH(QString, expected);
    QCOMPARE(JournalFormat::requestDuration(d), expected);
}

void TestJournal::quote_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("expected");

    // Expected values are what Go's strconv.Quote / %q prints.
    QTest::newRow("empty") << QString() << u"\"\""_s;
    QTest::newRow("plain") << u"3090-flint-40b"_s << u"\"3090-flint-40b\""_s;
    QTest::newRow("space") << u"a b"_s << u"\"a b\""_s;
    QTest::newRow("quote") << u"a\"b"_s << u"\"a\\\"b\""_s;
    QTest::newRow("backslash") << u"a\\b"_s << u"\"a\\\\b\""_s;
    QTest::newRow("newline") << u"a\nb"_s << u"\"a\\nb\""_s;
    QTest::newRow("carriage return") << u"a\rb"_s << u"\"a\\rb\""_s;
    QTest::newRow("tab") << u"a\tb"_s << u"\"a\\tb\""_s;
    QTest::newRow("bell, vt, ff, bs") << u"\a\v\f\b"_s << u"\"\\a\\v\\f\\b\""_s;
    QTest::newRow("nul") << QString(QChar(0)) << u"\"\\x00\""_s;
    QTest::newRow("escape") << u"\x1b[31m"_s << u"\"\\x1b[31m\""_s;
    QTest::newRow("del") << u"\x7f"_s << u"\"\\x7f\""_s;
    QTest::newRow("c1 control") << u"\u0085"_s << u"\"\\u0085\""_s;
    QTest::newRow("umlaut") << u"Grüße"_s << u"\"Grüße\""_s;
    QTest::newRow("cjk") << u"模型"_s << u"\"模型\""_s;
    QTest::newRow("emoji") << u"🚀"_s << u"\"🚀\""_s;
    QTest::newRow("replacement char") << u"\ufffd"_s << u"\"\ufffd\""_s;
    QTest::newRow("no-break space") << u"a\u00a0b"_s << u"\"a\\u00a0b\""_s;
    QTest::newRow("line separator") << u"a\u2028b"_s << u"\"a\\u2028b\""_s;
    QTest::newRow("right-to-left override") << u"a\u202eb"_s << u"\"a\\u202eb\""_s;
    QTest::newRow("zero width space") << u"a\u200bb"_s << u"\"a\\u200bb\""_s;
    QTest::newRow("bom") << u"\ufeff"_s << u"\"\\ufeff\""_s;
    QTest::newRow("private use") << u"\ue000"_s << u"\"\\ue000\""_s;
    QTest::newRow("supplementary private use") << QString::fromUcs4(U"\U000F0000") << u"\"\\U000f0000\""_s;
    QTest::newRow("lone surrogate") << QString(QChar(0xD800)) << u"\"\\ufffd\""_s;
}

void TestJournal::quote()
{
    QFETCH(QString, text);
    QFETCH(QString, expected);
    QCOMPARE(JournalFormat::goQuote(text), expected);
    // The byte version agrees whenever the text can be encoded as UTF-8 at all.
    if (text.isValidUtf16())
        QCOMPARE(JournalFormat::goQuote(text.toUtf8()), expected);
}

void TestJournal::quoteBytes_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("expected");

    QTest::newRow("valid") << QByteArray("Gr\xc3\xbc\xc3\x9f" "e") << u"\"Grüße\""_s;
    QTest::newRow("invalid byte") << QByteArray("a\xff" "b") << u"\"a\\xffb\""_s;
    QTest::newRow("truncated") << QByteArray("a\xc3") << u"\"a\\xc3\""_s;
    QTest::newRow("overlong slash") << QByteArray("\xc0\xaf") << u"\"\\xc0\\xaf\""_s;
    QTest::newRow("overlong 3 byte") << QByteArray("\xe0\x80\xaf") << u"\"\\xe0\\x80\\xaf\""_s;
    QTest::newRow("encoded surrogate") << QByteArray("\xed\xa0\x80") << u"\"\\xed\\xa0\\x80\""_s;
    QTest::newRow("above U+10FFFF") << QByteArray("\xf4\x90\x80\x80") << u"\"\\xf4\\x90\\x80\\x80\""_s;
    QTest::newRow("lone continuation") << QByteArray("\x80\n") << u"\"\\x80\\n\""_s;
    QTest::newRow("four bytes") << QByteArray("\xf0\x9f\x9a\x80") << u"\"🚀\""_s;
    QTest::newRow("nul") << QByteArray("a\0b", 3) << u"\"a\\x00b\""_s;
}

void TestJournal::quoteBytes()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QString, expected);
    QCOMPARE(JournalFormat::goQuote(bytes), expected);
}

void TestJournal::clientAddress_data()
{
    QTest::addColumn<QString>("peer");
    QTest::addColumn<QString>("expected");

    QTest::newRow("ipv4") << u"192.0.2.10"_s << u"192.0.2.10"_s;
    QTest::newRow("ipv4-mapped") << u"::ffff:192.0.2.10"_s << u"192.0.2.10"_s;
    QTest::newRow("ipv4-mapped upper case") << u"::FFFF:10.0.0.1"_s << u"10.0.0.1"_s;
    QTest::newRow("ipv4-mapped hex") << u"::ffff:c000:20a"_s << u"192.0.2.10"_s;
    QTest::newRow("ipv6 loopback") << u"::1"_s << u"::1"_s;
    QTest::newRow("ipv6") << u"2001:db8::1"_s << u"2001:db8::1"_s;
    QTest::newRow("ipv6 with zone") << u"fe80::1%eth0"_s << u"fe80::1%eth0"_s;
    QTest::newRow("empty") << QString() << u"-"_s;
    QTest::newRow("hostile") << u"1.2.3.4 ua=x"_s << u"\"1.2.3.4 ua=x\""_s;
}

void TestJournal::clientAddress()
{
    QFETCH(QString, peer);
    QFETCH(QString, expected);
    QCOMPARE(JournalFormat::clientAddress(peer), expected);
}

void TestJournal::requestLine_data()
{
    QTest::addColumn<RequestRecord>("record");
    QTest::addColumn<QString>("expected");

    QTest::newRow("seed: load through an engine switch")
        << seedLoad()
        << u"2026/10/24 22:21:41 POST /models/load model=\"3090-flint-40b\" host=3090 status=200 bytes=16 "
           "dur=2.326s from=192.0.2.10 ua=\"Python-urllib/3.14\""_s;

    RequestRecord health;
    health.startedAt = local(22, 21, 39, 100);
    health.method = u"GET"_s;
    health.path = u"/health"_s;
    health.status = 200;
    health.bytesOut = 64;
    health.duration = 180us;
    health.clientAddress = u"::ffff:192.0.2.10"_s;
    health.userAgent = u"Python-urllib/3.14"_s;
    QTest::newRow("seed: no model, no host, sub-millisecond")
        << health
        << u"2026/10/24 22:21:39 GET /health model=\"\" host=- status=200 bytes=64 dur=0s from=192.0.2.10 "
           "ua=\"Python-urllib/3.14\""_s;

    RequestRecord refused = health;
    refused.method = u"POST"_s;
    refused.path = u"/v1/chat/completions"_s;
    refused.model = u"a9-laguna-xs-q8"_s;
    refused.status = 423;
    refused.bytesOut = 242;
    refused.duration = 175ms;
    refused.userAgent.clear();
    refused.relayError = u"GPU owned by bench queue until 18:00"_s;
    QTest::newRow("relay error, no user agent")
        << refused
        << u"2026/10/24 22:21:39 POST /v1/chat/completions model=\"a9-laguna-xs-q8\" host=- status=423 bytes=242 "
           "dur=175ms from=192.0.2.10 ua=\"\" err=\"GPU owned by bench queue until 18:00\""_s;

    // Written at completion: a request that ends after midnight is stamped with the new day.
    RequestRecord late = seedLoad();
    late.startedAt = local(23, 59, 59, 900);
    late.duration = 61500ms;
    late.clientAddress.clear();
    QTest::newRow("stamped when done")
        << late
        << u"2026/10/25 00:01:01 POST /models/load model=\"3090-flint-40b\" host=3090 status=200 bytes=16 "
           "dur=1m1.5s from=- ua=\"Python-urllib/3.14\""_s;

    RequestRecord oddPath = seedLoad();
    oddPath.path = u"/v1/a b\"c\nd"_s;
    oddPath.method = u"GET"_s;
    QTest::newRow("path is percent-encoded")
        << oddPath
        << u"2026/10/24 22:21:41 GET /v1/a%20b%22c%0Ad model=\"3090-flint-40b\" host=3090 status=200 bytes=16 "
           "dur=2.326s from=192.0.2.10 ua=\"Python-urllib/3.14\""_s;
}

void TestJournal::requestLine()
{
    QFETCH(RequestRecord, record);
    QFETCH(QString, expected);
    QCOMPARE(JournalFormat::requestLine(record), expected);
}

void TestJournal::hostileValuesStayOneLine()
{
    // A client picks the model name and the user agent: neither may forge a field or a line.
    RequestRecord r = seedLoad();
    r.model = u"x\" host=evil status=200\n2026/10/24 22:21:41 host 3090: switching to engine evil"_s;
    r.userAgent = u"ua\r\n\u2028\u202e"_s;
    r.host = u"bad host"_s;
    const QString line = JournalFormat::requestLine(r);
    QVERIFY(!line.contains(u'\n'));
    QVERIFY(!line.contains(u'\r'));
    QVERIFY(!line.contains(QChar(0x2028)));
    QVERIFY(!line.contains(QChar(0x202e)));
    QCOMPARE(line.count(u" host="_s), 2);   // the real one and the escaped text inside model="..."
    QCOMPARE(line,
             u"2026/10/24 22:21:41 POST /models/load "
             "model=\"x\\\" host=evil status=200\\n2026/10/24 22:21:41 host 3090: switching to engine evil\" "
             "host=\"bad host\" status=200 bytes=16 dur=2.326s from=192.0.2.10 ua=\"ua\\r\\n\\u2028\\u202e\""_s);
}

void TestJournal::eventLine_data()
{
    QTest::addColumn<QDateTime>("when");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("expected");

    QTest::newRow("seed: switching") << local(22, 21, 39) << u"host 3090: switching to engine fork for 3090-flint-40b"_s
                                     << u"2026/10/24 22:21:39 host 3090: switching to engine fork for 3090-flint-40b"_s;
    QTest::newRow("seed: up") << local(22, 21, 41, 999) << u"host 3090: engine fork up after 2s"_s
                              << u"2026/10/24 22:21:41 host 3090: engine fork up after 2s"_s;
    QTest::newRow("control characters") << local(15, 55, 17) << u"host a9: \"x\"\nforged\tline"_s
                                        << u"2026/10/24 15:55:17 host a9: \"x\"\\nforged\\tline"_s;
    QTest::newRow("utc input shown in local time")
        << local(15, 55, 17).toUTC() << u"t"_s << u"2026/10/24 15:55:17 t"_s;
    QTest::newRow("invalid time") << QDateTime() << u"t"_s << u"0001/01/01 00:00:00 t"_s;
}

void TestJournal::eventLine()
{
    QFETCH(QDateTime, when);
    QFETCH(QString, text);
    QFETCH(QString, expected);
    QCOMPARE(JournalFormat::eventLine(when, text), expected);
}

QTEST_GUILESS_MAIN(TestJournal)
#include "tst_journal.moc"
