// What tells a prompt-cache save of one model from another's (issue 31): read from an engine's
// /models entry, compared field by field with what the entry said at the save.
#include "hosts/modelidentity.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace switchyard;
using namespace Qt::StringLiterals;

namespace {

QJsonObject routerEntry(const QString &file, bool loaded, qint64 size = 16712960)
{
    QJsonObject entry{{"id"_L1, u"alpha"_s},
                      {"status"_L1, QJsonObject{{"value"_L1, loaded ? u"loaded"_s : u"unloaded"_s},
                                               {"args"_L1, QJsonArray{u"llama-server"_s, u"--alias"_s, u"alpha"_s,
                                                                      u"--model"_s, file, u"--threads"_s, u"2"_s}}}}};
    if (loaded)
        entry.insert("meta"_L1, QJsonObject{{"n_vocab"_L1, 32000}, {"n_embd"_L1, 64}, {"n_params"_L1, 4178240},
                                            {"size"_L1, double(size)}, {"n_ctx"_L1, 4096}});
    return entry;
}

} // namespace

class TestModelIdentity : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void readsTheFileAndTheShape()
    {
        const QJsonObject identity = QJsonDocument::fromJson(ModelIdentity::of(routerEntry(u"/m/a.gguf"_s, true)).toUtf8()).object();
        QCOMPARE(identity.value("path"_L1).toString(), u"/m/a.gguf"_s);
        QCOMPARE(identity.value("n_params"_L1).toInteger(), 4178240);
        QCOMPARE(identity.value("size"_L1).toInteger(), 16712960);
        QVERIFY(!identity.contains("n_ctx"_L1));   // a smaller -c is the same model
        // A preset model not loaded yet names its file in the preset only.
        const QJsonObject preset{{"status"_L1, QJsonObject{{"value"_L1, u"unloaded"_s},
                                                          {"preset"_L1, u"[b]\nmodel = /m/b.gguf\n"_s}}}};
        QCOMPARE(ModelIdentity::of(preset), uR"({"path":"/m/b.gguf"})"_s);
        QCOMPARE(ModelIdentity::of(QJsonObject{{"id"_L1, u"x"_s}}), QString());
    }

    void compares_data()
    {
        QTest::addColumn<QString>("saved");
        QTest::addColumn<QString>("now");
        QTest::addColumn<QString>("mismatch");
        const QString a = ModelIdentity::of(routerEntry(u"/m/a.gguf"_s, true));
        QTest::newRow("same, loaded") << a << a << QString();
        QTest::newRow("same file, not loaded yet")
            << a << ModelIdentity::of(routerEntry(u"/m/a.gguf"_s, false)) << QString();
        QTest::newRow("another file") << a << ModelIdentity::of(routerEntry(u"/m/b.gguf"_s, false))
                                      << u"file /m/a.gguf, now /m/b.gguf"_s;
        QTest::newRow("same file, other weights") << a << ModelIdentity::of(routerEntry(u"/m/a.gguf"_s, true, 99))
                                                  << u"size 16712960, now 99"_s;
        QTest::newRow("nothing known at the save") << QString() << a << QString();
        QTest::newRow("nothing known now") << a << QString()
                                           << u"nothing the engine says now tells it is the same model"_s;
    }

    void compares()
    {
        QFETCH(QString, saved);
        QFETCH(QString, now);
        QFETCH(QString, mismatch);
        QCOMPARE(ModelIdentity::mismatch(saved, now), mismatch);
    }
};

QTEST_GUILESS_MAIN(TestModelIdentity)
#include "tst_modelidentity.moc"
