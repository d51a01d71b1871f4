// The hosts editor's Add Host and Add Engine (issue 30 item 8): the welcome's add-a-box dialog with
// its Check, over the editor; a new engine at a likely free address, not an error at once; an
// address another host or engine already has refused with that host's name.
#include "hostseditortesthelpers.h"

#include <QTest>

using namespace switchyard;
using namespace hostseditortest;
using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

class TstHostsEditorAdd : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void addHostChecksTheBoxFirst();
    void addHostRefusesAnAddressInUse();
    void addEngineStartsWithoutAnError();
    void engineAddressInUseRefused();
};

void TstHostsEditorAdd::addHostChecksTheBoxFirst()
{
    // Issue 30 item 8: Add Host was a raw form ("hosts.host.engines.main.url: must not be empty" at
    // once, the URL on an engine node, no Check). Now it is the welcome's dialog: URL, Check, name.
    fake::FakeLlamaServer box(routerWith({u"m1"_s, u"m2"_s}));
    QVERIFY(box.listen());
    QTemporaryDir dir;
    const QString path = dir.filePath(u"switchyard.json"_s);
    writeFile(path, ConfigWriter::addHost(ListenAnyPort, {u"gpu"_s, QUrl(u"http://127.0.0.1:9"_s), {}}).text);
    const QByteArray before = readFile(path);
    HostsEditorDialog editor(path);
    editor.show();
    QVERIFY(QTest::qWaitForWindowExposed(&editor));

    AddHostDialog *add = openAddHost(&editor);
    QVERIFY(add);
    QVERIFY(add->isModal());
    // Nothing is listed, and no error shown, before the box is asked.
    QCOMPARE(editor.model()->hosts(), QStringList{u"gpu"_s});
    QVERIFY(!editor.problems()->isVisible());
    QVERIFY(!add->saveButton()->isEnabled());
    QVERIFY(add->saveButton()->text().remove(u'&') == u"Add"_s);   // not "Add and Start": the editor saves
    // Typed as a person types it: no scheme.
    add->urlField()->setText(box.baseUrl().toString().remove(u"http://"_s));
    add->checkButton()->click();
    QTRY_VERIFY_WITH_TIMEOUT(add->saveButton()->isEnabled(), WaitMs);
    QVERIFY2(add->findings()->text().contains(u"router"_s), qPrintable(add->findings()->text()));
    QCOMPARE(add->nameField()->text(), u"box"_s);
    add->nameField()->setText(u"gpu"_s);   // taken in the editor: refused, named
    add->saveButton()->click();
    QVERIFY2(add->findings()->text().contains(u"\"gpu\""_s), qPrintable(add->findings()->text()));
    QVERIFY(add->isVisible());
    add->nameField()->setText(u"box"_s);
    add->saveButton()->click();
    QTRY_VERIFY_WITH_TIMEOUT(!editor.findChild<AddHostDialog *>(), WaitMs);   // closed and gone

    // Listed, selected, its engine at the checked URL, nothing wrong, and nothing written yet.
    QCOMPARE(editor.model()->hosts(), (QStringList{u"gpu"_s, u"box"_s}));
    QCOMPARE(editor.form()->host(), u"box"_s);
    QCOMPARE(editor.model()->engines(u"box"_s), QStringList{u"main"_s});
    QCOMPARE(editor.model()->text(u"box"_s, u"main"_s, u"url"_s), box.baseUrl().toString());
    QCOMPARE(editor.model()->text(u"box"_s, {}, u"driver"_s), u"static"_s);
    QVERIFY2(!editor.problems()->isVisible(), qPrintable(editor.problems()->text()));
    QCOMPARE(readFile(path), before);
    QVERIFY(editor.saveButton()->isEnabled());
    QVERIFY(editor.save());
    const ConfigResult written = ConfigLoader::load(path);
    QVERIFY2(written.ok(), qPrintable(written.errors.value(0).toString()));
    QCOMPARE(written.config->hosts.size(), 2);
    QCOMPARE(written.config->hosts.last().engines.first().url, box.baseUrl());

    // Cancelled: nothing added.
    add = openAddHost(&editor);
    QVERIFY(add);
    add->reject();
    QTRY_VERIFY_WITH_TIMEOUT(!editor.findChild<AddHostDialog *>(), WaitMs);
    QCOMPARE(editor.model()->hosts().size(), 2);
}

void TstHostsEditorAdd::addHostRefusesAnAddressInUse()
{
    // Issue 30 item 8: the same URL twice made two hosts silently. Refused before the box is
    // asked, naming the host that has it, however the address is typed.
    QTemporaryDir dir;
    const QString path = dir.filePath(u"switchyard.json"_s);
    writeFile(path, R"({"hosts": {"gpu": {"driver": "static", "engines": {"main": {"url": "http://gpu-box.lan:8080"}}},
        "twin": {"driver": "static", "engines": {"main": {"url": "http://127.0.0.1:9"},
                                                  "fork": {"url": "http://Fork-Box.lan/"}}}}})");
    HostsEditorDialog editor(path);
    editor.show();
    QVERIFY(QTest::qWaitForWindowExposed(&editor));

    const QList<std::pair<QString, QString>> typed = {
        {u"http://gpu-box.lan:8080"_s, u"gpu"_s},
        {u"gpu-box.lan:8080/"_s, u"gpu"_s},            // http:// assumed, a trailing slash
        {u"HTTP://GPU-Box.LAN:8080"_s, u"gpu"_s},      // the host's case
        {u"fork-box.lan:80"_s, u"twin"_s},             // any engine of a host; port 80 is the default
    };
    for (const auto &[url, host] : typed) {
        AddHostDialog *add = openAddHost(&editor);
        QVERIFY(add);
        add->urlField()->setText(url);
        add->checkButton()->click();
        const QString said = add->findings()->text();
        QVERIFY2(said.contains(u"\"%1\""_s.arg(host)), qPrintable(url + u": "_s + said));
        QVERIFY2(!add->saveButton()->isEnabled(), qPrintable(url));
        QVERIFY(!add->probe()->isRunning());   // refused without asking the network
        add->accept();
        QVERIFY(add->isVisible());
        add->reject();
        QTRY_VERIFY_WITH_TIMEOUT(!editor.findChild<AddHostDialog *>(), WaitMs);
    }
    QCOMPARE(editor.model()->hosts(), (QStringList{u"gpu"_s, u"twin"_s}));

    // A host renamed or re-addressed in the editor counts as it stands there, saved or not.
    editor.select(u"gpu"_s, u"main"_s);
    setField(editor.form(), u"url"_s, u"http://elsewhere.lan:8080"_s);
    AddHostDialog *add = openAddHost(&editor);
    QVERIFY(add);
    add->urlField()->setText(u"elsewhere.lan:8080"_s);
    add->checkButton()->click();
    QVERIFY2(add->findings()->text().contains(u"\"gpu\""_s), qPrintable(add->findings()->text()));
    add->reject();
    QTRY_VERIFY_WITH_TIMEOUT(!editor.findChild<AddHostDialog *>(), WaitMs);

    // The welcome's dialog, adding to the file, refuses it the same way.
    AddHostDialog first(path);
    first.urlField()->setText(u"gpu-box.lan:8080"_s);
    first.checkButton()->click();
    QVERIFY2(first.findings()->text().contains(u"\"gpu\""_s), qPrintable(first.findings()->text()));
    QVERIFY(!first.saveButton()->isEnabled());
}

void TstHostsEditorAdd::addEngineStartsWithoutAnError()
{
    // Issue 30 item 8: Add Engine started with an empty URL, "must not be empty" at once. It starts
    // on the host's box at the port after its engines' (one another host has is skipped), no error.
    QTemporaryDir dir;
    const QString path = dir.filePath(u"switchyard.json"_s);
    writeFile(path, R"({"hosts": {
        "gpu": {"driver": "static", "engines": {"main": {"url": "http://gpu-box.lan:8080"}}},
        "twin": {"driver": "static", "engines": {"main": {"url": "http://gpu-box.lan:8081"}}},
        "agented": {"driver": "agent", "agent": "http://far-box.lan:18767", "engines": {}},
        "bare": {"driver": "static", "engines": {}}}})");
    HostsEditorDialog editor(path);
    editor.show();
    QVERIFY(QTest::qWaitForWindowExposed(&editor));
    HostsEditorForm *form = editor.form();
    const auto urlField = [&] { return qobject_cast<QLineEdit *>(form->field(u"url"_s)); };

    editor.select(u"gpu"_s);
    editor.addEngineButton()->click();
    QCOMPARE(form->host(), u"gpu"_s);
    QCOMPARE(form->engine(), u"engine"_s);
    QCOMPARE(urlField()->text(), u"http://gpu-box.lan:8082"_s);
    QVERIFY(editor.focusWidget() == urlField() && urlField()->hasSelectedText());   // typed over at once if wrong
    QVERIFY2(!form->errorLabel(u"url"_s)->isVisible(), qPrintable(form->errorLabel(u"url"_s)->text()));
    QCOMPARE(editor.tree()->currentItem()->toolTip(0), QString());
    // An engine of an agent host: on the agent's box, llama-server's default port.
    editor.select(u"agented"_s);
    editor.addEngineButton()->click();
    QCOMPARE(urlField()->text(), u"http://far-box.lan:8080"_s);
    QVERIFY(!form->errorLabel(u"url"_s)->isVisible());

    // Nothing says where the bare host's box is: empty, yet not red until Save or an edit.
    editor.select(u"bare"_s);
    editor.addEngineButton()->click();
    QCOMPARE(form->engine(), u"main"_s);
    QCOMPARE(urlField()->text(), QString());
    QVERIFY(!form->errorLabel(u"url"_s)->isVisible());
    QVERIFY2(!editor.problems()->isVisible(), qPrintable(editor.problems()->text()));
    QCOMPARE(editor.tree()->currentItem()->toolTip(0), QString());
    const QByteArray saved = readFile(path);
    QVERIFY(!editor.save());   // Save names it
    const QString urlPath = HostsEditorModel::fieldPath(u"bare"_s, u"main"_s, u"url"_s);
    QVERIFY2(editor.problems()->text().contains(urlPath), qPrintable(editor.problems()->text()));
    QVERIFY(form->errorLabel(u"url"_s)->isVisible());
    QCOMPARE(readFile(path), saved);
    // Another new one: quiet until typed into and emptied again.
    editor.select(u"bare"_s);
    editor.addEngineButton()->click();
    QCOMPARE(form->engine(), u"engine"_s);
    QVERIFY(!form->errorLabel(u"url"_s)->isVisible());
    setField(form, u"url"_s, u"http://x"_s);
    setField(form, u"url"_s, QString());
    QVERIFY(form->errorLabel(u"url"_s)->isVisible());
}

void TstHostsEditorAdd::engineAddressInUseRefused()
{
    // Issue 30 item 8: an engine URL typed in the editor that another host or engine has was taken
    // silently. It is refused as Add Host refuses one (naming the host), however it is typed, and
    // Save names it and writes nothing.
    QTemporaryDir dir;
    const QString path = dir.filePath(u"switchyard.json"_s);
    writeFile(path, R"({"hosts": {"gpu": {"driver": "static", "engines": {"main": {"url": "http://gpu-box.lan:8080"}}},
        "twin": {"driver": "static", "engines": {"main": {"url": "http://127.0.0.1:9"}}}}})");
    const QByteArray before = readFile(path);
    HostsEditorDialog editor(path);
    editor.setConfirm([](const QString &) { return true; });   // laid out by hand: rewritten when saved
    editor.show();
    QVERIFY(QTest::qWaitForWindowExposed(&editor));
    HostsEditorForm *form = editor.form();
    QVERIFY(!editor.problems()->isVisible());

    for (const QString &typed : {u"GPU-Box.lan:8080/"_s, u"http://gpu-box.lan:8080"_s}) {
        editor.select(u"twin"_s, u"main"_s);
        setField(form, u"url"_s, typed);
        QVERIFY2(form->errorLabel(u"url"_s)->isVisible(), qPrintable(typed));
        const QString said = form->errorLabel(u"url"_s)->text();
        QVERIFY2(said.contains(u"the host \"gpu\" already has this address"_s), qPrintable(typed + u": "_s + said));
        QVERIFY2(!editor.tree()->currentItem()->toolTip(0).isEmpty(), qPrintable(typed));
    }
    // The other one is told too: each names the other.
    editor.select(u"gpu"_s, u"main"_s);
    QVERIFY2(form->errorLabel(u"url"_s)->text().contains(u"\"twin\""_s), qPrintable(form->errorLabel(u"url"_s)->text()));
    QVERIFY(!editor.save());
    QVERIFY2(editor.problems()->text().contains(u"already has this address"_s), qPrintable(editor.problems()->text()));
    QCOMPARE(readFile(path), before);

    // Another engine of the same host: named as that engine.
    editor.select(u"twin"_s, u"main"_s);
    setField(form, u"url"_s, u"http://127.0.0.1:9"_s);
    QVERIFY(!form->errorLabel(u"url"_s)->isVisible());
    editor.addEngineButton()->click();
    QCOMPARE(form->engine(), u"engine"_s);
    QCOMPARE(editor.model()->text(u"twin"_s, u"engine"_s, u"url"_s), u"http://127.0.0.1:10"_s);   // the next port
    setField(form, u"url"_s, u"127.0.0.1:9"_s);
    QVERIFY2(form->errorLabel(u"url"_s)->text().contains(u"the engine \"main\" of this host"_s),
             qPrintable(form->errorLabel(u"url"_s)->text()));
    // Another address: nothing in the way, saved.
    setField(form, u"url"_s, u"http://127.0.0.1:11"_s);
    QVERIFY(!form->errorLabel(u"url"_s)->isVisible());
    QVERIFY2(editor.save(), qPrintable(editor.problems()->text()));
    QVERIFY(ConfigLoader::load(path).ok());
}

QTEST_MAIN(TstHostsEditorAdd)
#include "tst_hostseditoradd.moc"
