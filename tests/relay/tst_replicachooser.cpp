#include "relay/jsonmodelfield.h"
#include "relay/replicachooser.h"
#include "relay/replicarouter.h"

#include <QTest>

using namespace switchyard;
using namespace Qt::StringLiterals;

Q_DECLARE_METATYPE(ReplicaChooser::Tier)

namespace {

// One replica in a word or few: "loaded 1/4" (engine up, model loaded, 1 of 4 slots in use),
// "up 0/4" (engine up, model not loaded), "off w2" (needs a switch, 2 waiting on the host),
// "down", "leased". Slots default to 0 (not known, taken as 1).
ReplicaChooser::Replica parse(const QString &text)
{
    ReplicaChooser::Replica r;
    for (const QString &word : text.split(u' ', Qt::SkipEmptyParts)) {
        if (word == "down"_L1) {
            r.down = true;
        } else if (word == "leased"_L1) {
            r.leased = true;
            r.engineUp = r.modelLoaded = true;   // a lease wins over a loaded model
        } else if (word == "off"_L1) {
            r.engineUp = false;
        } else if (word == "up"_L1) {
            r.engineUp = true;
        } else if (word == "loaded"_L1) {
            r.engineUp = r.modelLoaded = true;
        } else if (word.startsWith(u'w')) {
            r.waiting = word.mid(1).toInt();
        } else if (word.contains(u'/')) {
            r.inFlight = word.section(u'/', 0, 0).toInt();
            r.totalSlots = word.section(u'/', 1, 1).toInt();
        } else {
            qFatal("bad replica word %s", qPrintable(word));
        }
    }
    return r;
}

QList<ReplicaChooser::Replica> parseAll(const QStringList &texts)
{
    QList<ReplicaChooser::Replica> out;
    for (const QString &t : texts)
        out.append(parse(t));
    return out;
}

} // namespace

class TestReplicaChooser : public QObject
{
    Q_OBJECT

private slots:
    void choose_data();
    void choose();
    void orderForFailover();
    void tierNames();
    void conversationKey();
    void conversationKeyTurns_data();
    void conversationKeyTurns();
    void conversationKeyPerClient();
};

void TestReplicaChooser::choose_data()
{
    using Tier = ReplicaChooser::Tier;
    QTest::addColumn<QStringList>("replicas");
    QTest::addColumn<int>("previous");   // -1: a new conversation
    QTest::addColumn<int>("index");
    QTest::addColumn<Tier>("tier");
    QTest::addColumn<bool>("sticky");

    // Free slot.
    QTest::newRow("free slot beats full") << QStringList{u"loaded 4/4"_s, u"loaded 3/4"_s} << -1 << 1 << Tier::FreeSlot << false;
    QTest::newRow("free slot, least loaded") << QStringList{u"loaded 2/4"_s, u"loaded 1/4"_s} << -1 << 1 << Tier::FreeSlot << false;
    QTest::newRow("free slot, relative to slots") << QStringList{u"loaded 1/2"_s, u"loaded 3/8"_s} << -1 << 1 << Tier::FreeSlot << false;
    QTest::newRow("free slot, tie keeps config order") << QStringList{u"loaded 1/4"_s, u"loaded 1/4"_s} << -1 << 0 << Tier::FreeSlot << false;
    QTest::newRow("slots unknown count as one") << QStringList{u"loaded 1/0"_s, u"loaded 0/0"_s} << -1 << 1 << Tier::FreeSlot << false;
    QTest::newRow("free slot beats not loaded") << QStringList{u"up 0/4"_s, u"loaded 3/4"_s} << -1 << 1 << Tier::FreeSlot << false;
    // Loaded, not loaded, full.
    QTest::newRow("not loaded beats full") << QStringList{u"loaded 4/4"_s, u"up 0/4"_s} << -1 << 1 << Tier::NotLoaded << false;
    QTest::newRow("not loaded, fewest in flight") << QStringList{u"up 2/4"_s, u"up 1/4"_s} << -1 << 1 << Tier::NotLoaded << false;
    QTest::newRow("all full: least loaded") << QStringList{u"loaded 6/4"_s, u"loaded 5/4"_s} << -1 << 1 << Tier::Full << false;
    QTest::newRow("full beats a switch") << QStringList{u"off"_s, u"loaded 9/4"_s} << -1 << 1 << Tier::Full << false;
    // Needs a switch: the cheapest by waiters.
    QTest::newRow("needs switch beats down") << QStringList{u"down"_s, u"off w3"_s} << -1 << 1 << Tier::NeedsSwitch << false;
    QTest::newRow("needs switch, fewest waiters") << QStringList{u"off w3"_s, u"off w1"_s} << -1 << 1 << Tier::NeedsSwitch << false;
    QTest::newRow("needs switch, waiters before running") << QStringList{u"off 0/4 w2"_s, u"off 3/4 w0"_s} << -1 << 1 << Tier::NeedsSwitch << false;
    // Leased and down: never while another can serve.
    QTest::newRow("leased skipped for full") << QStringList{u"leased"_s, u"loaded 8/4"_s} << -1 << 1 << Tier::Full << false;
    QTest::newRow("leased skipped for switch") << QStringList{u"leased"_s, u"off w5"_s} << -1 << 1 << Tier::NeedsSwitch << false;
    QTest::newRow("down skipped for full") << QStringList{u"down"_s, u"loaded 8/4"_s} << -1 << 1 << Tier::Full << false;
    QTest::newRow("down beats leased when nothing serves") << QStringList{u"leased"_s, u"down"_s} << -1 << 1 << Tier::Down << false;
    QTest::newRow("all leased: the first") << QStringList{u"leased"_s, u"leased"_s} << -1 << 0 << Tier::Leased << false;
    QTest::newRow("one replica, down") << QStringList{u"down"_s} << -1 << 0 << Tier::Down << false;
    // Sticky: the previous turn's replica, while the model is loaded and it is not too busy.
    QTest::newRow("sticky over a freer replica") << QStringList{u"loaded 0/4"_s, u"loaded 3/4"_s} << 1 << 1 << Tier::FreeSlot << true;
    QTest::newRow("sticky while full, within bound") << QStringList{u"loaded 0/4"_s, u"loaded 5/4"_s} << 1 << 1 << Tier::Full << true;
    QTest::newRow("sticky bound reached") << QStringList{u"loaded 0/4"_s, u"loaded 6/4"_s} << 1 << 0 << Tier::FreeSlot << false;
    QTest::newRow("sticky bound, slots unknown") << QStringList{u"loaded 0/0"_s, u"loaded 2/0"_s} << 1 << 1 << Tier::Full << true;
    QTest::newRow("sticky bound, slots unknown, reached") << QStringList{u"loaded 0/0"_s, u"loaded 3/0"_s} << 1 << 0 << Tier::FreeSlot << false;
    QTest::newRow("sticky lost when down") << QStringList{u"loaded 3/4"_s, u"down"_s} << 1 << 0 << Tier::FreeSlot << false;
    QTest::newRow("sticky lost when leased") << QStringList{u"loaded 3/4"_s, u"leased"_s} << 1 << 0 << Tier::FreeSlot << false;
    QTest::newRow("sticky lost when unloaded") << QStringList{u"loaded 3/4"_s, u"up 0/4"_s} << 1 << 0 << Tier::FreeSlot << false;
    QTest::newRow("sticky lost after a switch") << QStringList{u"up 0/4"_s, u"off"_s} << 1 << 0 << Tier::NotLoaded << false;
    QTest::newRow("sticky where the rule goes anyway") << QStringList{u"loaded 2/4"_s, u"loaded 0/4"_s} << 1 << 1 << Tier::FreeSlot << true;
    QTest::newRow("previous out of range") << QStringList{u"loaded 2/4"_s, u"loaded 0/4"_s} << 7 << 1 << Tier::FreeSlot << false;
}

void TestReplicaChooser::choose()
{
    QFETCH(QStringList, replicas);
    QFETCH(int, previous);
    QFETCH(int, index);
    QFETCH(ReplicaChooser::Tier, tier);
    QFETCH(bool, sticky);

    const ReplicaChooser chooser;
    const auto choice = chooser.choose(parseAll(replicas), previous < 0 ? std::nullopt : std::optional<int>(previous));
    QCOMPARE(choice.index, index);
    QCOMPARE(ReplicaChooser::tierName(choice.tier), ReplicaChooser::tierName(tier));
    QCOMPARE(choice.sticky, sticky);
}

void TestReplicaChooser::orderForFailover()
{
    // Failover tries the rest best first; down and leased come last, down before leased.
    const ReplicaChooser chooser;
    const auto replicas = parseAll({u"leased"_s, u"down"_s, u"off w1"_s, u"loaded 4/4"_s, u"loaded 1/4"_s, u"up"_s});
    QCOMPARE(chooser.order(replicas), (QList<int>{4, 5, 3, 2, 1, 0}));
    // The sticky replica goes first, the others keep their order.
    QCOMPARE(chooser.order(replicas, 3), (QList<int>{3, 4, 5, 2, 1, 0}));
    QCOMPARE(chooser.choose({}).index, -1);
    // A tighter bound lets go sooner.
    const ReplicaChooser strict(0);
    QCOMPARE(strict.choose(parseAll({u"loaded 0/4"_s, u"loaded 4/4"_s}), 1).index, 0);
    QCOMPARE(strict.choose(parseAll({u"loaded 0/4"_s, u"loaded 3/4"_s}), 1).index, 1);
}

void TestReplicaChooser::tierNames()
{
    QCOMPARE(ReplicaChooser::tierName(ReplicaChooser::Tier::FreeSlot), u"free slot"_s);
    QCOMPARE(ReplicaChooser::tierName(ReplicaChooser::Tier::NeedsSwitch), u"needs a switch"_s);
    QCOMPARE(ReplicaChooser::tierOf(parse(u"leased"_s)), ReplicaChooser::Tier::Leased);
    QCOMPARE(ReplicaChooser::tierOf(parse(u"down"_s)), ReplicaChooser::Tier::Down);
}

void TestReplicaChooser::conversationKey()
{
    // What makes a conversation the same one across its turns (JsonModelField::conversation).
    const auto key = [](const QByteArray &body) { return JsonModelField::find(body).conversation; };
    const QByteArray turn1 = R"({"model":"coder","messages":[{"role":"system","content":"S"},{"role":"user","content":"fix it"}]})";
    const QByteArray turn2 = R"({"model":"coder","stream":true,"messages":[{"role":"system","content":"S"},)"
                             R"({"role":"user","content":"fix it"},{"role":"assistant","content":"ok"},)"
                             R"({"role":"user","content":"more"}]})";
    QVERIFY(key(turn1) != 0);
    QCOMPARE(key(turn2), key(turn1));
    // Another first user message, another conversation; the system prompt counts too.
    QVERIFY(key(R"({"messages":[{"role":"system","content":"S"},{"role":"user","content":"other"}]})") != key(turn1));
    // Anthropic: the system prompt is its own field, the first message is the user's.
    const QByteArray a1 = R"({"system":"S","messages":[{"role":"user","content":[{"type":"text","text":"fix it"}]}]})";
    const QByteArray a2 = R"({"system":"S","messages":[{"role":"user","content":[{"type":"text","text":"fix it"}]},)"
                          R"({"role":"assistant","content":"ok"},{"role":"user","content":"more"}]})";
    QCOMPARE(key(a2), key(a1));
    QVERIFY(key(R"({"system":"T","messages":[{"role":"user","content":[{"type":"text","text":"fix it"}]}]})") != key(a1));
    // Only the first 2 KB of the first user message: a cache marker added at its end later on
    // leaves the key as it was.
    const QByteArray longText(3000, 'x');
    const QByteArray m1 = R"({"messages":[{"role":"user","content":[{"type":"text","text":")" + longText
                          + R"(","cache_control":{"type":"ephemeral"}}]}]})";
    const QByteArray m2 = R"({"messages":[{"role":"user","content":[{"type":"text","text":")" + longText
                          + R"("}]},{"role":"assistant","content":"ok"},{"role":"user","content":"more"}]})";
    QCOMPARE(key(m2), key(m1));
    // No conversation: no key. A body that breaks off: none either, and still malformed.
    QCOMPARE(key(R"({"model":"coder","prompt":"hi"})"), quint64(0));
    QCOMPARE(JsonModelField::find(R"({"messages":[{"role":"user")").result, JsonModelField::Result::Malformed);
    // The model is still found around it.
    QCOMPARE(JsonModelField::find(turn2).value, u"coder"_s);
    QVERIFY(JsonModelField::find(turn2).stream);
}

void TestReplicaChooser::conversationKeyTurns_data()
{
    // Two bodies, and whether they are turns of one conversation (the same key) or two.
    QTest::addColumn<QByteArray>("a");
    QTest::addColumn<QByteArray>("b");
    QTest::addColumn<bool>("same");

    // Claude Code marks the newest message for caching: on turn 1 that is the first user message,
    // a short one here (under FirstUserBytes), from turn 2 on a later one.
    const QByteArray sys = R"("system":[{"type":"text","text":"You code.","cache_control":{"type":"ephemeral"}}])";
    QTest::newRow("anthropic marker moves on")
        << "{" + sys + R"(,"messages":[{"role":"user","content":[{"type":"text","text":"<reminder/>"},)"
                       R"({"type":"text","text":"fix it","cache_control":{"type":"ephemeral"}}]}]})"
        << "{" + sys + R"(,"messages":[{"role":"user","content":[{"type":"text","text":"<reminder/>"},)"
                       R"({"type":"text","text":"fix it"}]},{"role":"assistant","content":"ok"},)"
                       R"({"role":"user","content":[{"type":"text","text":"more","cache_control":{"type":"ephemeral"}}]}]})"
        << true;
    QTest::newRow("marker first, spaced")
        << QByteArray(R"({"messages":[{"role":"user","content":[{ "cache_control" : {"type":"ephemeral"} , "type":"text","text":"fix it"}]}]})")
        << QByteArray(R"({"messages":[{"role":"user","content":[{ "type":"text","text":"fix it"}]},{"role":"user","content":"more"}]})")
        << true;
    QTest::newRow("marker on the system prompt only on turn 1")
        << QByteArray(R"({"system":[{"type":"text","text":"S","cache_control":{"type":"ephemeral"}}],"messages":[{"role":"user","content":"go"}]})")
        << QByteArray(R"({"system":[{"type":"text","text":"S"}],"messages":[{"role":"user","content":"go"},{"role":"user","content":"on"}]})")
        << true;
    QTest::newRow("the same words, another first message")
        << QByteArray(R"({"messages":[{"role":"user","content":[{"type":"text","text":"fix it","cache_control":{"type":"ephemeral"}}]}]})")
        << QByteArray(R"({"messages":[{"role":"user","content":[{"type":"text","text":"fix that","cache_control":{"type":"ephemeral"}}]}]})")
        << false;
    // A value that reads "cache_control" is text, not a marker: it still tells them apart.
    QTest::newRow("cache_control as a value")
        << QByteArray(R"({"messages":[{"role":"user","content":"cache_control"}]})")
        << QByteArray(R"({"messages":[{"role":"user","content":"cache"}]})")
        << false;
    QTest::newRow("another system prompt")
        << QByteArray(R"({"messages":[{"role":"system","content":"A"},{"role":"user","content":"go"}]})")
        << QByteArray(R"({"messages":[{"role":"system","content":"B"},{"role":"user","content":"go"}]})")
        << false;
    // The prompt grows by tool results and answers: one conversation all along.
    QByteArray grown = R"({"messages":[{"role":"system","content":"S"},{"role":"user","content":"read a.c"})";
    QByteArray turn2 = grown;
    for (int t = 0; t < 20; ++t)
        turn2 += R"(,{"role":"assistant","content":"call read"},{"role":"tool","content":")" + QByteArray(500, 'x') + R"("})";
    QTest::newRow("20 tool turns later") << grown + "]}" << turn2 + "]}" << true;
}

void TestReplicaChooser::conversationKeyTurns()
{
    QFETCH(QByteArray, a);
    QFETCH(QByteArray, b);
    QFETCH(bool, same);
    const JsonModelField fa = JsonModelField::find(a);
    const JsonModelField fb = JsonModelField::find(b);
    QCOMPARE(fa.result, JsonModelField::Result::Missing);   // well-formed, no model
    QCOMPARE(fb.result, JsonModelField::Result::Missing);
    QVERIFY(fa.conversation != 0 && fb.conversation != 0);
    QCOMPARE(fa.conversation == fb.conversation, same);
    // The same under one client key, told apart under two.
    const quint64 ka = ReplicaRouter::conversationKey(u"alice"_s, fa.conversation);
    QCOMPARE(ka == ReplicaRouter::conversationKey(u"alice"_s, fb.conversation), same);
    QVERIFY(ka != ReplicaRouter::conversationKey(u"bob"_s, fb.conversation));
}

void TestReplicaChooser::conversationKeyPerClient()
{
    // Two clients that open alike are two conversations; without client keys ("") it is the
    // prompt alone. No prefix, no key: such a request sticks nowhere.
    const quint64 prompt = JsonModelField::find(R"({"messages":[{"role":"user","content":"hi"}]})").conversation;
    const quint64 other = JsonModelField::find(R"({"messages":[{"role":"user","content":"hello"}]})").conversation;
    QVERIFY(ReplicaRouter::conversationKey(u"alice"_s, prompt) != ReplicaRouter::conversationKey(u"bob"_s, prompt));
    QVERIFY(ReplicaRouter::conversationKey(u"alice"_s, prompt) != ReplicaRouter::conversationKey(u"alice"_s, other));
    QVERIFY(ReplicaRouter::conversationKey({}, prompt) != ReplicaRouter::conversationKey({}, other));
    QCOMPARE(ReplicaRouter::conversationKey(u"alice"_s, prompt), ReplicaRouter::conversationKey(u"alice"_s, prompt));
    QVERIFY(ReplicaRouter::conversationKey({}, prompt) != 0);
    QCOMPARE(ReplicaRouter::conversationKey(u"alice"_s, 0), quint64(0));
}

QTEST_APPLESS_MAIN(TestReplicaChooser)
#include "tst_replicachooser.moc"
