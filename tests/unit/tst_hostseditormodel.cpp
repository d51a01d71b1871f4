// HostsEditorModel: hosts and engines added, renamed, removed and their fields set in the file's
// tree with everything else kept; its verdict is the config readers' own, by field path; what
// would change is said field by field.
#include "config/configloader.h"
#include "config/hostseditormodel.h"

#include <QTest>

using namespace switchyard;
using namespace Qt::StringLiterals;

namespace {

// Hand-written: a comment, its own spacing, fields the editor does not show. (No raw string:
// moc reads the slash pairs in one as a comment.)
const QByteArray HandEdited = QByteArrayLiteral(
    "{\n  \"//\": \"my fleet\",\n  \"listen\": \"127.0.0.1:0\",\n  \"hosts\": {\n    \"gpu\": {\n"
    "      \"driver\": \"local\",\n      \"scheduling\": {\"policy\": \"arrival\"},\n      \"engines\": {\n"
    "        \"main\": {\"url\": \"http://127.0.0.1:8080\", \"argv\": [\"llama-server\", \"--port\", \"8080\"], "
    "\"start_timeout_s\": 60}\n      }\n    }\n  }\n}\n");

bool hasErrorAt(const ConfigResult &r, const QString &path)
{
    return std::any_of(r.errors.cbegin(), r.errors.cend(), [&](const ConfigError &e) { return e.fieldPath == path; });
}

} // namespace

class TstHostsEditorModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void readsHostsAndEngines();
    void editsKeepEverythingElse();
    void errorsComeFromTheReadersByPath();
    void newFileFromNothing();
    void renameRefusesTakenNames();
    void notAnObjectIsNotEdited();
    void wakeAndIdleWrittenThrough();
};

void TstHostsEditorModel::readsHostsAndEngines()
{
    HostsEditorModel model;
    QString error;
    QVERIFY(model.load(HandEdited, &error));
    QCOMPARE(model.hosts(), QStringList{u"gpu"_s});
    QCOMPARE(model.engines(u"gpu"_s), QStringList{u"main"_s});
    QCOMPARE(model.text(u"gpu"_s, {}, u"driver"_s), u"local"_s);
    QCOMPARE(model.text(u"gpu"_s, u"main"_s, u"url"_s), u"http://127.0.0.1:8080"_s);
    QCOMPARE(model.list(u"gpu"_s, u"main"_s, u"argv"_s), (QStringList{u"llama-server"_s, u"--port"_s, u"8080"_s}));
    QVERIFY(!model.isModified());
    QVERIFY(model.check(u"f.json"_s).ok());
    // Every field the readers know is shown (issue 30 item 8); a section given as a switch is not.
    QCOMPARE(model.hiddenFields(), QStringList());
    QCOMPARE(model.text(u"gpu"_s, {}, u"scheduling.policy"_s), u"arrival"_s);
    QCOMPARE(model.text(u"gpu"_s, u"main"_s, u"start_timeout_s"_s), u"60"_s);
    HostsEditorModel off;
    QVERIFY(off.load(QByteArray(HandEdited).replace("\"scheduling\"", "\"prompt_cache\": false, \"scheduling\""), &error));
    QCOMPARE(off.hiddenFields(), QStringList{u"hosts.gpu.prompt_cache"_s});
    const ConfigWriter::Plan plan = model.plan();
    QVERIFY(plan.reformats);
    QCOMPARE(plan.comments, 1);
}

void TstHostsEditorModel::editsKeepEverythingElse()
{
    HostsEditorModel model;
    QString error;
    QVERIFY(model.load(HandEdited, &error));
    model.setText(u"gpu"_s, u"main"_s, u"url"_s, u"http://127.0.0.1:9090"_s);
    model.setList(u"gpu"_s, u"main"_s, u"argv"_s, {u"llama-server"_s, u"--port"_s, u"9090"_s});
    model.setText(u"gpu"_s, {}, u"api_key"_s, u"sekrit-key-123"_s);
    const QString engine = model.addEngine(u"gpu"_s);
    QCOMPARE(engine, u"engine"_s);
    model.setText(u"gpu"_s, engine, u"url"_s, u"http://127.0.0.1:8081"_s);
    model.setList(u"gpu"_s, engine, u"argv"_s, {u"llama-server"_s});
    QVERIFY(model.isModified());
    const ConfigResult r = model.check(u"f.json"_s);
    QVERIFY2(r.ok(), qPrintable(r.errors.value(0).toString()));
    const HostConfig &host = r.config->hosts.first();
    QCOMPARE(host.scheduling.policy, SchedulingConfig::Policy::Arrival);   // hidden field kept
    QCOMPARE(host.engines.size(), 2);
    QCOMPARE(host.engines.first().startTimeout, std::chrono::milliseconds(60000));
    QCOMPARE(host.engines.first().url, QUrl(u"http://127.0.0.1:9090"_s));
    QCOMPARE(host.apiKey, u"sekrit-key-123"_s);
    const ConfigWriter::Plan plan = model.plan();
    QVERIFY(plan.text.contains("\"//\": \"my fleet\""));
    const QStringList changes = model.changes();
    QVERIFY2(changes.contains(u"hosts.gpu.engines.main.url: \"http://127.0.0.1:8080\" → \"http://127.0.0.1:9090\""_s),
             qPrintable(changes.join(u'\n')));
    QVERIFY(changes.contains(u"hosts.gpu.engines.engine: added"_s));
    // A secret is said to change, never shown.
    QVERIFY(changes.contains(u"hosts.gpu.api_key: added"_s));
    QVERIFY(!changes.join(u' ').contains(u"sekrit"_s));

    // Empty removes the field; removing an engine and a host removes them.
    model.setText(u"gpu"_s, {}, u"api_key"_s, {});
    model.removeEngine(u"gpu"_s, engine);
    QCOMPARE(model.engines(u"gpu"_s), QStringList{u"main"_s});
    model.removeHost(u"gpu"_s);
    QVERIFY(model.hosts().isEmpty());
    QVERIFY(model.changes().contains(u"hosts.gpu: removed"_s));
}

void TstHostsEditorModel::errorsComeFromTheReadersByPath()
{
    HostsEditorModel model;
    QString error;
    QVERIFY(model.load(HandEdited, &error));
    model.setText(u"gpu"_s, u"main"_s, u"url"_s, u"ftp://nowhere"_s);
    model.setText(u"gpu"_s, {}, u"driver"_s, u"statik"_s);
    const ConfigResult r = model.check(u"f.json"_s);
    QVERIFY(!r.ok());
    QVERIFY(hasErrorAt(r, HostsEditorModel::fieldPath(u"gpu"_s, u"main"_s, u"url"_s)));
    QVERIFY(hasErrorAt(r, HostsEditorModel::fieldPath(u"gpu"_s, {}, u"driver"_s)));
    // As check-config words it.
    const ConfigResult direct = ConfigLoader::parse(model.plan().text, u"f.json"_s);
    QCOMPARE(direct.errors.size(), r.errors.size());
    QCOMPARE(direct.errors.first().message, r.errors.first().message);
}

void TstHostsEditorModel::newFileFromNothing()
{
    HostsEditorModel model;
    QString error;
    QVERIFY(model.load({}, &error));
    const QString host = model.addHost();
    QCOMPARE(host, u"host"_s);
    QCOMPARE(model.engines(host), QStringList{u"main"_s});
    // The new engine has no URL yet: the readers say so, at its field.
    QVERIFY(hasErrorAt(model.check({}), HostsEditorModel::fieldPath(host, u"main"_s, u"url"_s)));
    model.setText(host, u"main"_s, u"url"_s, u"http://127.0.0.1:8080"_s);
    const ConfigResult r = model.check({});
    QVERIFY2(r.ok(), qPrintable(r.errors.value(0).toString()));
    QVERIFY(model.plan().newFile);
    QCOMPARE(model.addHost(), u"host2"_s);
}

void TstHostsEditorModel::renameRefusesTakenNames()
{
    HostsEditorModel model;
    QString error;
    QVERIFY(model.load(HandEdited, &error));
    const QString other = model.addHost();
    QVERIFY(!model.renameHost(other, u"gpu"_s));
    QVERIFY(model.renameHost(other, u"box"_s));
    QCOMPARE(model.hosts(), (QStringList{u"gpu"_s, u"box"_s}));
    QVERIFY(!model.renameEngine(u"gpu"_s, u"main"_s, u"//"_s));
    QVERIFY(model.renameEngine(u"gpu"_s, u"main"_s, u"big"_s));
    QCOMPARE(model.engines(u"gpu"_s), QStringList{u"big"_s});
    // An invalid name is the readers' to report, at the host.
    QVERIFY(model.renameHost(u"box"_s, u"a b"_s));
    QVERIFY(hasErrorAt(model.check({}), HostsEditorModel::fieldPath(u"a b"_s)));
}

void TstHostsEditorModel::notAnObjectIsNotEdited()
{
    HostsEditorModel model;
    QString error;
    QVERIFY(!model.load("[1, 2]", &error));
    QVERIFY(!error.isEmpty());
    QVERIFY(!model.load("{ nope", &error));
    QVERIFY(error.contains(u"JSON"_s));
}

void TstHostsEditorModel::wakeAndIdleWrittenThrough()
{
    // Written to the JSON as typed (numbers as numbers); the config readers judge them.
    HostsEditorModel model;
    QString error;
    QVERIFY(model.load(HandEdited, &error));
    model.setText(u"gpu"_s, {}, u"wake.mac"_s, u"aa:bb:cc:dd:ee:ff"_s);
    model.setText(u"gpu"_s, {}, u"wake.port"_s, u"9"_s);
    model.setText(u"gpu"_s, {}, u"idle_stop_after_s"_s, u"600"_s);
    model.setText(u"gpu"_s, {}, u"sleep_command"_s, u"ssh gpu systemctl suspend"_s);
    QCOMPARE(model.text(u"gpu"_s, {}, u"wake.mac"_s), u"aa:bb:cc:dd:ee:ff"_s);
    QCOMPARE(model.text(u"gpu"_s, {}, u"wake.port"_s), u"9"_s);
    const QByteArray text = model.plan().text;
    QVERIFY2(text.contains("\"wake\": {\n        \"mac\": \"aa:bb:cc:dd:ee:ff\",\n        \"port\": 9\n      }"), text.constData());
    QVERIFY(text.contains("\"idle_stop_after_s\": 600"));
    QVERIFY(model.hiddenFields().join(u' ').indexOf(u"wake"_s) < 0);   // shown, not hidden
    // Not a number: written as typed, for the readers to say so.
    model.setText(u"gpu"_s, {}, u"wake.port"_s, u"nine"_s);
    QVERIFY(model.plan().text.contains("\"port\": \"nine\""));
    // Emptied: the fields go, and "wake" with them once it holds nothing.
    model.setText(u"gpu"_s, {}, u"wake.port"_s, {});
    model.setText(u"gpu"_s, {}, u"wake.mac"_s, {});
    QVERIFY(!model.plan().text.contains("\"wake\""));
    QVERIFY(model.changes().contains(u"hosts.gpu.idle_stop_after_s: added"_s));
}

QTEST_GUILESS_MAIN(TstHostsEditorModel)
#include "tst_hostseditormodel.moc"
