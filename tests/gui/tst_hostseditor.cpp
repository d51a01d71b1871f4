// The hosts editor (issue 22): hosts and engines edited with the config readers' errors shown at
// their fields, a valid edit saved (the previous file kept as .bak) and served after the live
// reload without dropping a stream, and a hand-edited file never rewritten before the user has
// seen what would change. Offscreen, against fake llama.cpp routers.
#include "hostseditortesthelpers.h"

#include <QTest>

using namespace switchyard;
using namespace hostseditortest;
using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

class TstHostsEditor : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void fieldErrorShownInline();
    void validEditSavedAndServedAfterReload();
    void handEditedFileAsksWhatChanges();
    void opensFromSettingsAndCardMenu();
    void everyFieldEditable();
    void badFieldNamedWhenSaving();
};

void TstHostsEditor::fieldErrorShownInline()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(u"switchyard.json"_s);
    writeFile(path, ConfigWriter::addHost({}, {u"gpu"_s, QUrl(u"http://127.0.0.1:9"_s), {}}).text);
    const QByteArray before = readFile(path);
    HostsEditorDialog dialog(path);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    QCOMPARE(dialog.tree()->topLevelItemCount(), 1);
    QVERIFY(!dialog.saveButton()->isEnabled());   // nothing changed yet

    // The engine's URL, wrong: the readers' own message, right under the field.
    dialog.select(u"gpu"_s, u"main"_s);
    HostsEditorForm *form = dialog.form();
    QCOMPARE(form->engine(), u"main"_s);
    QVERIFY(form->isFieldShown(u"url"_s));
    QVERIFY(!form->isFieldShown(u"argv"_s));   // a static host's engines are not started
    setField(form, u"url"_s, u"ftp://gpu.lan"_s);
    const QString urlPath = HostsEditorModel::fieldPath(u"gpu"_s, u"main"_s, u"url"_s);
    const QString expected = readersSay(dialog.model()->plan().text, urlPath);
    QVERIFY(!expected.isEmpty());
    QVERIFY(form->errorLabel(u"url"_s)->isVisible());
    QCOMPARE(form->errorLabel(u"url"_s)->text(), expected);
    QVERIFY(!dialog.problems()->text().contains(expected));   // at the field, not in a list below
    // Save is not a dead button: it says what stops it, and writes nothing.
    QVERIFY(dialog.saveButton()->isEnabled());
    dialog.saveButton()->click();
    QVERIFY(dialog.isVisible());
    QVERIFY2(dialog.problems()->isVisible() && dialog.problems()->text().contains(urlPath + u": "_s + expected),
             qPrintable(dialog.problems()->text()));
    QCOMPARE(readFile(path), before);
    // The engine and its host are marked in the list, with what is wrong.
    QTreeWidgetItem *engineItem = dialog.tree()->topLevelItem(0)->child(0);
    QVERIFY(engineItem->toolTip(0).contains(expected));
    QVERIFY(dialog.tree()->topLevelItem(0)->toolTip(0).contains(expected));

    // The host's driver misspelt: said at the driver field, with the readers' guess.
    dialog.select(u"gpu"_s);
    QCOMPARE(form->engine(), QString());
    setField(form, u"driver"_s, u"statik"_s);
    QVERIFY(form->errorLabel(u"driver"_s)->isVisible());
    QVERIFY2(form->errorLabel(u"driver"_s)->text().contains(u"\"static\""_s), qPrintable(form->errorLabel(u"driver"_s)->text()));
    QVERIFY(!form->errorLabel(u"url"_s)->isVisible());   // the engine's fields are not this form's now
    QVERIFY(form->isFieldShown(u"wake.mac"_s) && form->isFieldShown(u"idle_stop_after_s"_s));
    // A taken name is refused at the name field.
    const QString other = dialog.model()->addHost();
    dialog.select(other);
    setField(form, u"name"_s, u"gpu"_s);
    QVERIFY(form->errorLabel(u"name"_s)->isVisible());
    QVERIFY(dialog.model()->hosts().contains(other));

    // Fixed: no errors, and Save is offered; Cancel writes nothing.
    dialog.removeButton()->click();
    QVERIFY(!dialog.model()->hosts().contains(other));
    dialog.select(u"gpu"_s);
    setField(form, u"driver"_s, u"static"_s);
    QVERIFY(!form->errorLabel(u"driver"_s)->isVisible());
    dialog.select(u"gpu"_s, u"main"_s);
    setField(form, u"url"_s, u"http://127.0.0.1:8089"_s);
    QVERIFY(!form->errorLabel(u"url"_s)->isVisible());
    QVERIFY(!dialog.problems()->isVisible());
    QVERIFY(dialog.saveButton()->isEnabled());
    dialog.reject();
    QCOMPARE(readFile(path), before);
}

void TstHostsEditor::validEditSavedAndServedAfterReload()
{
    fake::FakeLlamaServer one(routerWith({u"m1"_s}, 40));
    fake::FakeLlamaServer two(routerWith({u"m3"_s}));
    QVERIFY(one.listen() && two.listen());
    QTemporaryDir dir;
    const QString path = dir.filePath(u"switchyard.json"_s);
    writeFile(path, ConfigWriter::addHost(ListenAnyPort, {u"one"_s, one.baseUrl(), {}}).text);
    const QByteArray before = readFile(path);

    AppOptions options;
    options.configPath = path;
    SystemClock clock;
    HistoryStore store(dir.filePath(u"h.sqlite"_s), clock);
    RelayRunner runner(nullptr, &store);
    AppSettings settings(std::make_unique<QSettings>(dir.filePath(u"s.ini"_s), QSettings::IniFormat));
    ConfigReloader reloader(options, &settings, &runner, nullptr);
    const ConfigResult first = StartupConfig::resolve(options, &settings);
    QVERIFY2(first.ok(), qPrintable(first.errors.value(0).toString()));
    QString error;
    QVERIFY(runner.start(*first.config, &error));
    DesktopApp desktop(clock, &runner, &store, &settings, &reloader, DesktopApp::Options());
    QSignalSpy reloaded(&reloader, &ConfigReloader::reloaded);
    QSignalSpy changed(&runner, &RelayRunner::serviceChanged);

    // A stream to "one" runs across the save and the reload.
    QNetworkAccessManager nam;
    QNetworkRequest request(QUrl(runner.service()->endpoint().toString() + u"/v1/chat/completions"_s));
    request.setHeader(QNetworkRequest::ContentTypeHeader, u"application/json"_s);
    QNetworkReply *stream = nam.post(request, R"({"model": "one-m1", "stream": true, "max_tokens": 60,
        "messages": [{"role": "user", "content": "hi"}]})");
    QSignalSpy streaming(stream, &QIODevice::readyRead);
    QVERIFY(streaming.wait(WaitMs));

    QPointer<HostsEditorDialog> editor = desktop.openHostsEditor(u"one"_s);
    QVERIFY(editor);
    QCOMPARE(editor->form()->host(), u"one"_s);
    QStringList asked;
    editor->setConfirm([&](const QString &q) {
        asked.append(q);
        return true;
    });
    AddHostDialog *add = openAddHost(editor);
    QVERIFY(add);
    add->urlField()->setText(two.baseUrl().toString());
    add->checkButton()->click();
    QTRY_VERIFY_WITH_TIMEOUT(add->saveButton()->isEnabled(), WaitMs);
    add->nameField()->setText(u"two"_s);
    add->saveButton()->click();
    QTRY_COMPARE_WITH_TIMEOUT(editor->model()->hosts(), (QStringList{u"one"_s, u"two"_s}), WaitMs);
    QVERIFY2(editor->saveButton()->isEnabled(), qPrintable(editor->problems()->text()));
    QSignalSpy saved(editor, &HostsEditorDialog::saved);
    editor->saveButton()->click();
    QCOMPARE(saved.count(), 1);
    QVERIFY2(asked.isEmpty(), qPrintable(asked.value(0)));   // its own layout, no comments: not asked
    QTRY_VERIFY_WITH_TIMEOUT(!editor, WaitMs);   // Save saves and closes

    // Written, the previous file kept, and applied by the live reload.
    QCOMPARE(readFile(path + u".bak"_s), before);
    const ConfigResult written = ConfigLoader::load(path);
    QVERIFY2(written.ok(), qPrintable(written.errors.value(0).toString()));
    QCOMPARE(written.config->hosts.size(), 2);
    QTRY_COMPARE_WITH_TIMEOUT(reloaded.count(), 1, WaitMs);
    QCOMPARE(runner.service()->catalog()->hostNames(), (QStringList{u"one"_s, u"two"_s}));
    // The watcher sees the same bytes: no second reload.
    QTest::qWait(int(ConfigReloader::SettleTime.count()) * 3);
    QCOMPARE(changed.count(), 1);

    // The stream that ran across it ends whole.
    QSignalSpy finished(stream, &QNetworkReply::finished);
    if (!stream->isFinished())
        QVERIFY(finished.wait(WaitMs));
    QCOMPARE(stream->error(), QNetworkReply::NoError);
    QVERIFY(stream->readAll().contains("[DONE]"));
    stream->deleteLater();

    // The new host serves.
    QNetworkReply *models = nam.get(QNetworkRequest(QUrl(runner.service()->endpoint().toString() + u"/v1/models"_s)));
    QSignalSpy listed(models, &QNetworkReply::finished);
    QVERIFY(listed.wait(WaitMs));
    QTRY_VERIFY_WITH_TIMEOUT(runner.service()->catalog()->hostNames().contains(u"two"_s), WaitMs);
    const QByteArray body = models->readAll();
    models->deleteLater();
    QVERIFY2(body.contains("two-m3") && body.contains("one-m1"), body.constData());
}

void TstHostsEditor::handEditedFileAsksWhatChanges()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(u"switchyard.json"_s);
    const QByteArray mine = QByteArrayLiteral(
        "{ \"//\": \"my boxes\",\n  \"hosts\": { \"gpu\": { \"driver\": \"command\", \"scheduling\": {\"policy\": \"arrival\"},\n"
        "    \"prompt_cache\": false,\n"
        "    \"engines\": { \"main\": { \"url\": \"http://127.0.0.1:8080\", \"start\": \"true\", \"stop\": \"true\" } } } } }\n");
    writeFile(path, mine);
    HostsEditorDialog dialog(path);
    QStringList asked;
    bool answer = false;
    dialog.setConfirm([&](const QString &q) {
        asked.append(q);
        return answer;
    });
    QSignalSpy saved(&dialog, &HostsEditorDialog::saved);
    dialog.select(u"gpu"_s, u"main"_s);
    QVERIFY(dialog.form()->isFieldShown(u"start"_s));
    dialog.select(u"gpu"_s);
    QVERIFY(dialog.form()->isFieldShown(u"scheduling.policy"_s));
    QCOMPARE(qobject_cast<QComboBox *>(dialog.form()->field(u"scheduling.policy"_s))->currentText(), u"arrival"_s);
    dialog.select(u"gpu"_s, u"main"_s);
    setField(dialog.form(), u"url"_s, u"http://127.0.0.1:8081"_s);
    QVERIFY(dialog.saveButton()->isEnabled());

    // Cancelled: what would change was said, and nothing is written.
    dialog.saveButton()->click();
    QCOMPARE(asked.size(), 1);
    const QString q = asked.first();
    QVERIFY2(q.contains(u"by hand"_s), qPrintable(q));
    QVERIFY2(q.contains(u"hosts.gpu.engines.main.url: \"http://127.0.0.1:8080\" → \"http://127.0.0.1:8081\""_s), qPrintable(q));
    QVERIFY2(q.contains(u"1 comment"_s), qPrintable(q));
    QVERIFY2(q.contains(u"hosts.gpu.prompt_cache"_s), qPrintable(q));   // a field this editor cannot show
    QVERIFY2(!q.contains(u"hosts.gpu.scheduling"_s), qPrintable(q));    // shown now: not "kept as it is"
    QCOMPARE(readFile(path), mine);
    QVERIFY(!QFile::exists(path + u".bak"_s));
    QCOMPARE(saved.count(), 0);
    QVERIFY(dialog.isVisible() || dialog.result() != QDialog::Accepted);

    // Agreed: written with the comment and the hidden field kept, the old file in .bak.
    answer = true;
    dialog.saveButton()->click();
    QCOMPARE(asked.size(), 2);
    QCOMPARE(saved.count(), 1);
    QCOMPARE(readFile(path + u".bak"_s), mine);
    const QByteArray now = readFile(path);
    QVERIFY(now.contains("\"//\": \"my boxes\""));
    const ConfigResult loaded = ConfigLoader::load(path);
    QVERIFY2(loaded.ok(), qPrintable(loaded.errors.value(0).toString()));
    QCOMPARE(loaded.config->hosts.first().scheduling.policy, SchedulingConfig::Policy::Arrival);
    QCOMPARE(loaded.config->hosts.first().engines.first().url, QUrl(u"http://127.0.0.1:8081"_s));
}

void TstHostsEditor::opensFromSettingsAndCardMenu()
{
    fake::FakeLlamaServer one(routerWith({u"m1"_s}));
    QVERIFY(one.listen());
    QTemporaryDir dir;
    const QString path = dir.filePath(u"switchyard.json"_s);
    writeFile(path, ConfigWriter::addHost(ListenAnyPort, {u"one"_s, one.baseUrl(), {}}).text);
    AppOptions options;
    options.configPath = path;
    SystemClock clock;
    HistoryStore store(dir.filePath(u"h.sqlite"_s), clock);
    RelayRunner runner(nullptr, &store);
    AppSettings settings(std::make_unique<QSettings>(dir.filePath(u"s.ini"_s), QSettings::IniFormat));
    ConfigReloader reloader(options, &settings, &runner, nullptr);
    QString error;
    QVERIFY(runner.start(*StartupConfig::resolve(options, &settings).config, &error));
    DesktopApp desktop(clock, &runner, &store, &settings, &reloader, DesktopApp::Options());

    // The card's context menu has "Edit Host…", for the card's host. Each step waits for what it
    // needs (the card, the current host, the editor, its form) rather than assuming it is there.
    HostsView *cards = desktop.window()->hostsView();
    QVERIFY(cards->editHostAction()->isEnabled());
    QTRY_VERIFY_WITH_TIMEOUT(cards->model()->rowCount() == 1, WaitMs);
    cards->setCurrentIndex(cards->model()->index(0, 0));
    QTRY_COMPARE_WITH_TIMEOUT(cards->currentHost(), u"one"_s, WaitMs);
    cards->editHostAction()->trigger();
    QPointer<HostsEditorDialog> editor;
    QTRY_VERIFY_WITH_TIMEOUT((editor = desktop.window()->findChild<HostsEditorDialog *>()) && editor->isVisible(), WaitMs);
    QTRY_COMPARE_WITH_TIMEOUT(editor->form()->host(), u"one"_s, WaitMs);
    editor->close();
    QTRY_VERIFY_WITH_TIMEOUT(!editor, WaitMs);   // closed and deleted before the settings part

    // Settings has "Edit Hosts…".
    qputenv("SWITCHYARD_AUTOSTART_DIR", dir.filePath(u"autostart"_s).toLocal8Bit());
    Autostart autostart(u"switchyard"_s);
    SettingsDialog dialog(&settings, &autostart, {});
    QSignalSpy requested(&dialog, &SettingsDialog::hostsEditorRequested);
    QVERIFY(dialog.editHostsButton()->isEnabled());
    dialog.editHostsButton()->click();
    QTRY_COMPARE_WITH_TIMEOUT(requested.count(), 1, WaitMs);
    qunsetenv("SWITCHYARD_AUTOSTART_DIR");
}

void TstHostsEditor::everyFieldEditable()
{
    // Issue 30 item 8: scheduling, prompt cache, timeouts, wake and idle stop could not be edited
    // ("stay as they are in the file"). Each is a field now, and what is typed is what loads.
    QTemporaryDir dir;
    const QString path = dir.filePath(u"switchyard.json"_s);
    writeFile(path, R"({"hosts": {"gpu": {"driver": "command", "prompt_cache": {"dir": "/srv/cache"},
        "engines": {"main": {"url": "http://127.0.0.1:9", "start": "true", "stop": "true"}}}}})");
    HostsEditorDialog dialog(path);
    dialog.setConfirm([](const QString &) { return true; });
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    HostsEditorForm *form = dialog.form();

    dialog.select(u"gpu"_s);
    QCOMPARE(qobject_cast<QLineEdit *>(form->field(u"prompt_cache.dir"_s))->text(), u"/srv/cache"_s);
    const QList<std::pair<QString, QString>> hostFields = {
        {u"scheduling.policy"_s, u"arrival"_s},         {u"scheduling.dwell_s"_s, u"5"_s},
        {u"scheduling.max_wait_s"_s, u"45"_s},          {u"scheduling.side_call_max_wait_s"_s, u"7"_s},
        {u"prompt_cache.dir"_s, u"/srv/slots"_s},       {u"prompt_cache.max_size_mb"_s, u"2048"_s},
        {u"prompt_cache.save_budget_s"_s, u"4"_s},      {u"idle_stop_after_s"_s, u"600"_s},
        {u"sleep_command"_s, u"ssh gpu \"sudo systemctl suspend\""_s},
        {u"wake.mac"_s, u"aa:bb:cc:dd:ee:ff"_s},        {u"wake.broadcast"_s, u"192.168.1.255"_s},
        {u"wake.port"_s, u"7"_s},                       {u"wake.timeout_s"_s, u"90"_s},
    };
    for (const auto &[key, value] : hostFields) {
        QVERIFY2(form->isFieldShown(key), qPrintable(key));
        setField(form, key, value);
        QVERIFY2(!form->errorLabel(key)->isVisible(), qPrintable(key + u": "_s + form->errorLabel(key)->text()));
    }
    dialog.select(u"gpu"_s, u"main"_s);
    const QList<std::pair<QString, QString>> engineFields = {
        {u"start_timeout_s"_s, u"200"_s}, {u"stop_timeout_s"_s, u"20"_s}, {u"engine.idle_stop_after_s"_s, u"300"_s}};
    for (const auto &[key, value] : engineFields) {
        QVERIFY2(form->isFieldShown(key), qPrintable(key));
        setField(form, key, value);
        QVERIFY2(!form->errorLabel(key)->isVisible(), qPrintable(key + u": "_s + form->errorLabel(key)->text()));
    }
    QVERIFY2(!dialog.problems()->isVisible(), qPrintable(dialog.problems()->text()));
    QVERIFY(dialog.model()->hiddenFields().isEmpty());
    QVERIFY(dialog.save());

    const ConfigResult loaded = ConfigLoader::load(path);
    QVERIFY2(loaded.ok(), qPrintable(loaded.errors.value(0).toString()));
    const HostConfig &h = loaded.config->hosts.first();
    QCOMPARE(h.scheduling.policy, SchedulingConfig::Policy::Arrival);
    QCOMPARE(h.scheduling.dwell, 5s);
    QCOMPARE(h.scheduling.maxWait, 45s);
    QCOMPARE(h.scheduling.sideCallMaxWait, 7s);
    QCOMPARE(h.promptCache.dir, u"/srv/slots"_s);
    QCOMPARE(h.promptCache.maxBytes, qint64(2048) * 1024 * 1024);
    QCOMPARE(h.promptCache.saveBudget, 4s);
    QCOMPARE(h.idleStopAfter, std::optional<std::chrono::milliseconds>(600s));
    QCOMPARE(h.sleepCommand, (QStringList{u"ssh"_s, u"gpu"_s, u"sudo systemctl suspend"_s}));
    QCOMPARE(h.wake.mac, QByteArray::fromHex("aabbccddeeff"));
    QCOMPARE(h.wake.broadcast, QHostAddress(u"192.168.1.255"_s));
    QCOMPARE(h.wake.port, quint16(7));
    QCOMPARE(h.wake.timeout, 90s);
    QCOMPARE(h.engines.first().startTimeout, 200s);
    QCOMPARE(h.engines.first().stopTimeout, 20s);
    QCOMPARE(h.engines.first().idleStopAfter, std::optional<std::chrono::milliseconds>(300s));

    // Read back into the fields as written.
    HostsEditorDialog again(path);
    again.select(u"gpu"_s);
    QCOMPARE(qobject_cast<QLineEdit *>(again.form()->field(u"sleep_command"_s))->text(),
             u"ssh gpu \"sudo systemctl suspend\""_s);
    QCOMPARE(qobject_cast<QLineEdit *>(again.form()->field(u"scheduling.max_wait_s"_s))->text(), u"45"_s);
}

void TstHostsEditor::badFieldNamedWhenSaving()
{
    // Issue 30 item 8: a bad value in one field never blocks saving the others silently. It is
    // shown at its field with the readers' message, and Save names it and shows where it is.
    QTemporaryDir dir;
    const QString path = dir.filePath(u"switchyard.json"_s);
    writeFile(path, R"({"hosts": {"gpu": {"driver": "command",
        "engines": {"main": {"url": "http://127.0.0.1:9", "start": "true", "stop": "true"}}},
        "a9": {"driver": "static", "engines": {"main": {"url": "http://127.0.0.1:10"}}}}})");
    const QByteArray before = readFile(path);
    HostsEditorDialog dialog(path);
    dialog.setConfirm([](const QString &) { return true; });
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    HostsEditorForm *form = dialog.form();

    dialog.select(u"gpu"_s);
    setField(form, u"wake.port"_s, u"99999"_s);
    setField(form, u"scheduling.dwell_s"_s, u"soon"_s);
    const QString portPath = HostsEditorModel::fieldPath(u"gpu"_s, {}, u"wake.port"_s);
    const QString dwellPath = HostsEditorModel::fieldPath(u"gpu"_s, {}, u"scheduling.dwell_s"_s);
    const QString portSays = readersSay(dialog.model()->plan().text, portPath);
    const QString dwellSays = readersSay(dialog.model()->plan().text, dwellPath);
    QVERIFY(!portSays.isEmpty() && !dwellSays.isEmpty());
    QCOMPARE(form->errorLabel(u"wake.port"_s)->text(), portSays);
    QCOMPARE(form->errorLabel(u"scheduling.dwell_s"_s)->text(), dwellSays);
    // A good edit elsewhere, then Save from the other host's page.
    dialog.select(u"a9"_s, u"main"_s);
    setField(form, u"url"_s, u"http://127.0.0.1:11"_s);
    QVERIFY(dialog.saveButton()->isEnabled());
    dialog.saveButton()->click();
    QCOMPARE(readFile(path), before);
    QVERIFY(dialog.isVisible());
    const QString said = dialog.problems()->text();
    QVERIFY2(dialog.problems()->isVisible(), qPrintable(said));
    QVERIFY2(said.contains(portPath + u": "_s + portSays), qPrintable(said));
    QVERIFY2(said.contains(dwellPath + u": "_s + dwellSays), qPrintable(said));
    QCOMPARE(form->host(), u"gpu"_s);   // taken to where the first one is
    QCOMPARE(form->engine(), QString());
    QVERIFY(form->errorLabel(u"wake.port"_s)->isVisible());
    // The first one the readers name has the focus.
    const QString firstPath = ConfigLoader::parse(dialog.model()->plan().text, u"f.json"_s).errors.value(0).fieldPath;
    QString firstKey;
    for (const QString &key : {u"scheduling.dwell_s"_s, u"wake.port"_s, u"wake.mac"_s}) {
        if (firstPath == HostsEditorModel::fieldPath(u"gpu"_s, {}, key))
            firstKey = key;
    }
    QVERIFY2(!firstKey.isEmpty(), qPrintable(firstPath));
    QCOMPARE(dialog.focusWidget(), form->field(firstKey));

    // A port without a MAC is also named (at the MAC). Fixed: the good edit is saved with them.
    QVERIFY2(said.contains(HostsEditorModel::fieldPath(u"gpu"_s, {}, u"wake.mac"_s)), qPrintable(said));
    QVERIFY(form->errorLabel(u"wake.mac"_s)->isVisible());
    setField(form, u"wake.port"_s, QString());
    setField(form, u"scheduling.dwell_s"_s, u"15"_s);
    QVERIFY2(dialog.save(), qPrintable(dialog.problems()->text()));
    const ConfigResult loaded = ConfigLoader::load(path);
    QVERIFY2(loaded.ok(), qPrintable(loaded.errors.value(0).toString()));
    QCOMPARE(loaded.config->hosts.last().engines.first().url, QUrl(u"http://127.0.0.1:11"_s));
    QCOMPARE(loaded.config->hosts.first().scheduling.dwell, 15s);
}

QTEST_MAIN(TstHostsEditor)
#include "tst_hostseditor.moc"
