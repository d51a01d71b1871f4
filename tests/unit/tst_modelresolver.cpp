#include "relay/modelresolver.h"

#include <QTest>

using namespace switchyard;
using namespace Qt::StringLiterals;

// Where a model name goes: "<host>-<key>" split at the longest configured host name that
// prefixes it (host names may hold '-' themselves), after the alias rules.
class TestModelResolver : public QObject
{
    Q_OBJECT

private slots:
    void split_data();
    void split();
    void aliasGoesToItsTarget();
};

namespace {
Config fleet(const QStringList &hosts)
{
    Config config;
    for (const QString &name : hosts) {
        HostConfig host;
        host.name = name;
        config.hosts.append(host);
    }
    return config;
}
} // namespace

void TestModelResolver::split_data()
{
    QTest::addColumn<QStringList>("hosts");
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("host");   // empty: not routed
    QTest::addColumn<QString>("key");

    const QStringList dashed = {u"gpu"_s, u"gpu-a"_s, u"gpu-a-2"_s, u"3090"_s};
    QTest::newRow("plain") << dashed << u"3090-qwen"_s << u"3090"_s << u"qwen"_s;
    QTest::newRow("the key keeps its dashes") << dashed << u"3090-qwen-32b-q4"_s << u"3090"_s << u"qwen-32b-q4"_s;
    QTest::newRow("the longest host wins") << dashed << u"gpu-a-2-m"_s << u"gpu-a-2"_s << u"m"_s;
    QTest::newRow("a shorter host when the longer does not fit") << dashed << u"gpu-a-m"_s << u"gpu-a"_s << u"m"_s;
    QTest::newRow("the shortest") << dashed << u"gpu-m-a"_s << u"gpu"_s << u"m-a"_s;
    QTest::newRow("no key") << dashed << u"3090-"_s << QString() << QString();
    QTest::newRow("the host alone") << dashed << u"3090"_s << QString() << QString();
    QTest::newRow("an unknown host") << dashed << u"4090-qwen"_s << QString() << QString();
    QTest::newRow("a host's prefix is no host") << dashed << u"gp-m"_s << QString() << QString();
    QTest::newRow("a leading dash") << dashed << u"-3090-m"_s << QString() << QString();
    QTest::newRow("empty") << dashed << QString() << QString() << QString();
    QStringList twenty;
    for (int i = 1; i <= 20; ++i)
        twenty << u"h%1"_s.arg(i, 2, 10, QLatin1Char('0'));
    QTest::newRow("one of twenty") << twenty << u"h17-m01"_s << u"h17"_s << u"m01"_s;
}

void TestModelResolver::split()
{
    QFETCH(QStringList, hosts);
    QFETCH(QString, model);
    QFETCH(QString, host);
    QFETCH(QString, key);

    const std::optional<ModelRoute> route = ModelResolver(fleet(hosts)).resolve(model);
    QCOMPARE(route.has_value(), !host.isEmpty());
    if (!route)
        return;
    QCOMPARE(route->host, host);
    QCOMPARE(route->key, key);
    QCOMPARE(route->alias, model);
    QCOMPARE(route->requested, model);
}

void TestModelResolver::aliasGoesToItsTarget()
{
    Config config = fleet({u"box"_s, u"box-2"_s});
    AliasRule rule;
    rule.pattern = u"claude-*"_s;
    rule.target = u"box-2-coder"_s;
    rule.targets = {rule.target};
    config.aliases.append(rule);

    const std::optional<ModelRoute> route = ModelResolver(config).resolve(u"claude-sonnet"_s);
    QVERIFY(route);
    QCOMPARE(route->host, u"box-2"_s);
    QCOMPARE(route->key, u"coder"_s);
    QCOMPARE(route->requested, u"claude-sonnet"_s);
}

QTEST_GUILESS_MAIN(TestModelResolver)
#include "tst_modelresolver.moc"
