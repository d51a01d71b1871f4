#include "engines/wakeonlan.h"

#include <QSignalSpy>
#include <QTest>
#include <QUdpSocket>

using namespace switchyard;
using namespace Qt::StringLiterals;

class TestWakeOnLan : public QObject
{
    Q_OBJECT

private slots:
    void parseMac_data();
    void parseMac();
    void magicPacket();
    void sentToALoopbackSocket();
    void refusesWhatItCannotSend();
};

void TestWakeOnLan::parseMac_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QByteArray>("bytes");   // empty: not a MAC
    const QByteArray mac = QByteArray::fromHex("a0b1c2d3e4f5");
    QTest::newRow("colons") << u"a0:b1:c2:d3:e4:f5"_s << mac;
    QTest::newRow("dashes, upper case") << u"A0-B1-C2-D3-E4-F5"_s << mac;
    QTest::newRow("spaces around") << u" a0:b1:c2:d3:e4:f5 "_s << mac;
    QTest::newRow("mixed separators") << u"a0:b1-c2:d3:e4:f5"_s << QByteArray();
    QTest::newRow("five bytes") << u"a0:b1:c2:d3:e4"_s << QByteArray();
    QTest::newRow("seven bytes") << u"a0:b1:c2:d3:e4:f5:06"_s << QByteArray();
    QTest::newRow("not hex") << u"a0:b1:c2:d3:e4:g5"_s << QByteArray();
    QTest::newRow("no separators") << u"a0b1c2d3e4f5"_s << QByteArray();
    QTest::newRow("dots") << u"a0.b1.c2.d3.e4.f5"_s << QByteArray();
    QTest::newRow("sign") << u"+0:b1:c2:d3:e4:f5"_s << QByteArray();
    QTest::newRow("empty") << QString() << QByteArray();
}

void TestWakeOnLan::parseMac()
{
    QFETCH(QString, text);
    QFETCH(QByteArray, bytes);
    const std::optional<QByteArray> mac = WakeOnLan::parseMac(text);
    QCOMPARE(mac.has_value(), !bytes.isEmpty());
    if (mac)
        QCOMPARE(*mac, bytes);
}

void TestWakeOnLan::magicPacket()
{
    const QByteArray mac = QByteArray::fromHex("a0b1c2d3e4f5");
    const QByteArray packet = WakeOnLan::magicPacket(mac);
    QCOMPARE(packet.size(), 102);
    QCOMPARE(packet.left(6), QByteArray(6, char(0xFF)));
    for (int i = 0; i < 16; ++i)
        QCOMPARE(packet.mid(6 + 6 * i, 6), mac);
    QVERIFY(WakeOnLan::magicPacket(QByteArray::fromHex("a0b1c2")).isEmpty());
}

void TestWakeOnLan::sentToALoopbackSocket()
{
    // Never any other address: the test listens on 127.0.0.1 and sends there.
    QUdpSocket listener;
    QVERIFY(listener.bind(QHostAddress(QHostAddress::LocalHost), 0));
    QSignalSpy ready(&listener, &QUdpSocket::readyRead);
    const QByteArray mac = *WakeOnLan::parseMac(u"a0:b1:c2:d3:e4:f5"_s);
    QString error;
    QVERIFY2(WakeOnLan::send(mac, QHostAddress(QHostAddress::LocalHost), listener.localPort(), &error), qPrintable(error));
    QVERIFY(listener.hasPendingDatagrams() || ready.wait(5000));
    QByteArray datagram(int(listener.pendingDatagramSize()), 0);
    QCOMPARE(listener.readDatagram(datagram.data(), datagram.size()), qint64(102));
    QCOMPARE(datagram, QByteArray(6, char(0xFF)) + mac.repeated(16));
}

void TestWakeOnLan::refusesWhatItCannotSend()
{
    QString error;
    QVERIFY(!WakeOnLan::send(QByteArray::fromHex("a0b1"), QHostAddress(QHostAddress::LocalHost), 9, &error));
    QVERIFY(error.contains(u"6 bytes"_s));
    QVERIFY(!WakeOnLan::send(QByteArray::fromHex("a0b1c2d3e4f5"), QHostAddress(QHostAddress::LocalHostIPv6), 9, &error));
    QVERIFY(error.contains(u"not an IPv4 address"_s));
}

QTEST_MAIN(TestWakeOnLan)
#include "tst_wakeonlan.moc"
