// ConfigWriter: a new config file for the first run's host, a host added to an existing file
// with its order and comments kept, the hand-edited check, and the atomic save with a backup.
#include "config/configloader.h"
#include "config/configwriter.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace switchyard;
using namespace Qt::StringLiterals;

class TstConfigWriter : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void newFileLoads();
    void addsToExistingKeepingOrderAndComments();
    void ownLayoutIsNotHandEdited();
    void refusesDuplicatesAndBrokenFiles();
    void suggestsHostNames();
    void saveKeepsBackup();
};

void TstConfigWriter::newFileLoads()
{
    const ConfigWriter::Plan plan = ConfigWriter::addHost({}, {u"gpu"_s, QUrl(u"http://127.0.0.1:8080"_s), u"sekrit"_s});
    QVERIFY2(plan.ok(), qPrintable(plan.error));
    QVERIFY(plan.newFile);
    QVERIFY(!plan.reformats);
    const ConfigResult loaded = ConfigLoader::parse(plan.text, u"new.json"_s);
    QVERIFY2(loaded.ok(), qPrintable(loaded.errors.value(0).toString()));
    QCOMPARE(loaded.config->hosts.size(), 1);
    const HostConfig &host = loaded.config->hosts.first();
    QCOMPARE(host.name, u"gpu"_s);
    QCOMPARE(host.driver, u"static"_s);
    QCOMPARE(host.apiKey, u"sekrit"_s);
    QCOMPARE(host.engines.size(), 1);
    QCOMPARE(host.engines.first().url, QUrl(u"http://127.0.0.1:8080"_s));
}

void TstConfigWriter::addsToExistingKeepingOrderAndComments()
{
    // Written by hand: its own spacing, a comment, hosts in an order QJsonObject would sort.
    const QByteArray mine = "{ \"\x2f/\": \"my boxes\",\n"
                            "  \"listen\": \"127.0.0.1:18766\",\n"
                            "  \"hosts\": {\n"
                            "    \"zeta\": { \"engines\": { \"main\": { \"url\": \"http://127.0.0.1:9001\" } } },\n"
                            "    \"alpha\": { \"\x2f/\": \"the old one\", \"engines\": { \"main\": { \"url\": \"http://127.0.0.1:9002\" } } }\n"
                            "  }\n"
                            "}\n";
    const ConfigWriter::Plan plan = ConfigWriter::addHost(mine, {u"new_box"_s, QUrl(u"http://127.0.0.1:9003"_s), {}});
    QVERIFY2(plan.ok(), qPrintable(plan.error));
    QVERIFY(!plan.newFile);
    QVERIFY(plan.reformats);   // hand-laid-out: the dialog asks first
    QCOMPARE(plan.comments, 2);
    QVERIFY(plan.text.contains("\"\x2f/\": \"my boxes\""));
    QVERIFY(plan.text.contains("\"\x2f/\": \"the old one\""));
    const ConfigResult loaded = ConfigLoader::parse(plan.text, u"mine.json"_s);
    QVERIFY2(loaded.ok(), qPrintable(loaded.errors.value(0).toString()));
    QStringList names;
    for (const HostConfig &h : loaded.config->hosts)
        names.append(h.name);
    QCOMPARE(names, (QStringList{u"zeta"_s, u"alpha"_s, u"new_box"_s}));
    QVERIFY(!plan.text.contains("api_key"));
}

void TstConfigWriter::ownLayoutIsNotHandEdited()
{
    const ConfigWriter::Plan first = ConfigWriter::addHost({}, {u"a"_s, QUrl(u"http://127.0.0.1:9001"_s), {}});
    const ConfigWriter::Plan second = ConfigWriter::addHost(first.text, {u"b"_s, QUrl(u"http://127.0.0.1:9002"_s), {}});
    QVERIFY2(second.ok(), qPrintable(second.error));
    QVERIFY(!second.reformats);
    QCOMPARE(second.comments, 0);
    QVERIFY(second.text.startsWith(first.text.left(first.text.indexOf("\n    }\n"))));
}

void TstConfigWriter::refusesDuplicatesAndBrokenFiles()
{
    const ConfigWriter::Plan first = ConfigWriter::addHost({}, {u"a"_s, QUrl(u"http://127.0.0.1:9001"_s), {}});
    const ConfigWriter::Plan twice = ConfigWriter::addHost(first.text, {u"a"_s, QUrl(u"http://127.0.0.1:9002"_s), {}});
    QVERIFY(!twice.ok());
    QVERIFY2(twice.error.contains(u"hosts.a"_s), qPrintable(twice.error));
    const ConfigWriter::Plan broken = ConfigWriter::addHost("{\"hosts\": ", {u"a"_s, QUrl(u"http://127.0.0.1:9001"_s), {}});
    QVERIFY(!broken.ok());
    QVERIFY(broken.text.isEmpty());
}

void TstConfigWriter::suggestsHostNames()
{
    QCOMPARE(ConfigWriter::suggestHostName(QUrl(u"http://gpu-3090.lan:8080"_s), {}), u"gpu_3090"_s);
    QCOMPARE(ConfigWriter::suggestHostName(QUrl(u"http://gpu-3090.lan:8080"_s), {u"gpu_3090"_s}), u"gpu_30902"_s);
    QCOMPARE(ConfigWriter::suggestHostName(QUrl(u"http://127.0.0.1:8080"_s), {}), u"box"_s);
    QCOMPARE(ConfigWriter::suggestHostName(QUrl(u"http://localhost:8080"_s), {u"box"_s}), u"box2"_s);
}

void TstConfigWriter::saveKeepsBackup()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(u"sub/switchyard.json"_s);
    QString error;
    QVERIFY2(ConfigWriter::save(path, "first\n", &error), qPrintable(error));
    QVERIFY(!QFile::exists(path + u".bak"_s));
    QCOMPARE(QFile::permissions(path) & (QFileDevice::ReadOther | QFileDevice::ReadGroup), QFileDevice::Permissions());
    QVERIFY2(ConfigWriter::save(path, "second\n", &error), qPrintable(error));
    QFile now(path), backup(path + u".bak"_s);
    QVERIFY(now.open(QIODevice::ReadOnly) && backup.open(QIODevice::ReadOnly));
    QCOMPARE(now.readAll(), QByteArray("second\n"));
    QCOMPARE(backup.readAll(), QByteArray("first\n"));
}

QTEST_GUILESS_MAIN(TstConfigWriter)
#include "tst_configwriter.moc"
