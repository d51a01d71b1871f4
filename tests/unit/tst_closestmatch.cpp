#include "config/closestmatch.h"

#include <QTest>

using namespace switchyard;
using namespace Qt::StringLiterals;

// The "did you mean" guess of every config error about an unknown field or driver.
class TestClosestMatch : public QObject
{
    Q_OBJECT

private slots:
    void guess_data();
    void guess();
};

void TestClosestMatch::guess_data()
{
    QTest::addColumn<QString>("word");
    QTest::addColumn<QStringList>("candidates");
    QTest::addColumn<QString>("expected");

    const QStringList engineFields = {u"url"_s, u"models"_s, u"argv"_s, u"start"_s, u"stop"_s};
    const QStringList drivers = {u"static"_s, u"local"_s, u"agent"_s, u"command"_s};

    QTest::newRow("swapped neighbours are one edit") << u"ulr"_s << engineFields << u"url"_s;
    QTest::newRow("case is ignored") << u"URL"_s << engineFields << u"url"_s;
    QTest::newRow("a letter missing") << u"statc"_s << drivers << u"static"_s;
    QTest::newRow("a letter too many") << u"commmand"_s << drivers << u"command"_s;
    QTest::newRow("nothing near") << u"colour"_s << engineFields << QString();
    QTest::newRow("no candidates") << u"url"_s << QStringList() << QString();

    // Allowed: max(1, the candidate's length / 3) edits.
    QTest::newRow("short word, one edit") << u"b"_s << QStringList{u"a"_s} << u"a"_s;
    QTest::newRow("short word, two edits") << u"xy"_s << QStringList{u"ab"_s} << QString();
    QTest::newRow("seven letters, two edits") << u"enxxnes"_s << QStringList{u"engines"_s} << u"engines"_s;
    QTest::newRow("seven letters, three edits") << u"exxxnes"_s << QStringList{u"engines"_s} << QString();
    QTest::newRow("a long candidate allows more") << u"mods"_s << QStringList{u"models"_s} << u"models"_s;
    QTest::newRow("a long word does not") << u"argvxy"_s << QStringList{u"argv"_s} << QString();

    QTest::newRow("the nearest wins") << u"stat"_s << QStringList{u"start"_s, u"stat"_s} << u"stat"_s;
    QTest::newRow("the first of equally near ones") << u"cat"_s << QStringList{u"bat"_s, u"hat"_s} << u"bat"_s;
}

void TestClosestMatch::guess()
{
    QFETCH(QString, word);
    QFETCH(QStringList, candidates);
    QFETCH(QString, expected);
    QCOMPARE(closestMatch(word, candidates), expected);
}

QTEST_GUILESS_MAIN(TestClosestMatch)
#include "tst_closestmatch.moc"
