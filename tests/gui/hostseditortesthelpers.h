#pragma once
// What the hosts editor's tests share (tst_hostseditor, tst_hostseditoradd): files read and
// written, a form's field typed into, what check-config says for a path, the editor's Add Host
// opened, a fake router.
#include "app/appsettings.h"
#include "app/commandline.h"
#include "app/configreloader.h"
#include "app/relayrunner.h"
#include "app/relayservice.h"
#include "app/startupconfig.h"
#include "catalog/catalog.h"
#include "catalog/hostprobe.h"
#include "common/clock.h"
#include "config/configloader.h"
#include "config/configwriter.h"
#include "desktop/desktopapp.h"
#include "dialogs/addhostdialog.h"
#include "dialogs/hostseditordialog.h"
#include "dialogs/hostseditorform.h"
#include "dialogs/settingsdialog.h"
#include "fakellamaserver.h"
#include "store/historystore.h"
#include "tray/autostart.h"
#include "window/hostsview.h"
#include "window/mainwindow.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QPointer>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

namespace hostseditortest {

using namespace switchyard;
using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

inline constexpr int WaitMs = 10000;
// A file laid out as the writer lays it out: the editor has nothing to ask about it.
inline const QByteArray ListenAnyPort = "{\n  \"listen\": \"127.0.0.1:0\"\n}\n";

inline QByteArray readFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

inline void writeFile(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(bytes);
}

inline void setField(HostsEditorForm *form, const QString &key, const QString &text)
{
    auto *edit = qobject_cast<QLineEdit *>(form->field(key));
    if (auto *combo = qobject_cast<QComboBox *>(form->field(key)))
        edit = combo->lineEdit();
    QVERIFY2(edit, qPrintable(key));
    edit->setText(text);
}

// The message the config's readers give for path, as check-config prints it.
inline QString readersSay(const QByteArray &text, const QString &path)
{
    for (const ConfigError &e : ConfigLoader::parse(text, u"f.json"_s).errors) {
        if (e.fieldPath == path)
            return e.message;
    }
    return {};
}

// The editor's Add Host: the first run's dialog, open over the editor.
inline AddHostDialog *openAddHost(HostsEditorDialog *editor)
{
    editor->addHostButton()->click();
    AddHostDialog *add = nullptr;
    [&] { QTRY_VERIFY_WITH_TIMEOUT((add = editor->findChild<AddHostDialog *>()) && add->isVisible(), WaitMs); }();
    return add;
}

inline fake::FakeOptions routerWith(const QStringList &models, double tokensPerSecond = 1000)
{
    fake::FakeOptions o;
    o.models = models;
    o.loaded = {models.first()};
    o.loadDelay = 20ms;
    o.tokensPerSecond = tokensPerSecond;
    return o;
}

} // namespace hostseditortest
