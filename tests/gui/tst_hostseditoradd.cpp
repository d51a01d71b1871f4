// The hosts editor's Add Host (issue 30 item 8): the welcome's add-a-box dialog with its Check,
// over the editor, and an address another host already has refused with that host's name.
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

QTEST_MAIN(TstHostsEditorAdd)
#include "tst_hostseditoradd.moc"
