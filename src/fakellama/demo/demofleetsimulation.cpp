#include "demofleetsimulation.h"

#include "demobox.h"
#include "demoboxpower.h"
#include "fakellamaserver.h"

#include <QJsonArray>

namespace switchyard::fake {

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace {

// A locally administered address ("SY" 30 60): no real card has it.
const QByteArray SleeperMac = QByteArray::fromHex("025359306001");

} // namespace

DemoFleetSimulation::DemoFleetSimulation(Timing timing, QObject *parent)
    : QObject(parent)
{
    FakeOptions big;
    big.models = {u"flint-40b"_s, u"flint-40b-256k"_s};
    big.modelContext = {{u"flint-40b"_s, 131072}, {u"flint-40b-256k"_s, 262144}};
    big.loadDelay = 2500ms;
    big.tokensPerSecond = 45;
    big.maxModels = 1;
    big.loaded = {u"flint-40b"_s};
    big.maxReplyTokens = 200;   // clients ask for up to 32000; a demo answer should end in seconds
    // A fork build on the same box: faster on the model it was made for, up with it loaded.
    FakeOptions fork;
    fork.models = {u"qwen38-27b-128k"_s};
    fork.modelContext = {{u"qwen38-27b-128k"_s, 131072}};
    fork.loaded = fork.models;
    fork.tokensPerSecond = 60;
    fork.maxReplyTokens = 200;
    auto *rtx3090 = new DemoBox(u"3090"_s, true, timing.engineStart, this);
    rtx3090->addEngine(u"mainline"_s, new FakeLlamaServer(big));
    rtx3090->addEngine(u"fork"_s, new FakeLlamaServer(fork));
    m_boxes.append(rtx3090);

    FakeOptions small;
    small.models = {u"laguna-xs-q8"_s, u"strata-8b"_s};
    small.modelContext = {{u"laguna-xs-q8"_s, 32768}, {u"strata-8b"_s, 65536}};
    small.loadDelay = 4000ms;
    small.tokensPerSecond = 25;
    small.maxModels = 2;
    small.maxReplyTokens = 200;
    auto *a9 = new DemoBox(u"a9"_s, false, timing.engineStart, this);
    a9->addEngine(u"main"_s, new FakeLlamaServer(small));
    m_boxes.append(a9);

    // A 12 GiB box that sleeps when idle; strata-8b here too, so it is replicated with the a9's.
    FakeOptions sleeper;
    sleeper.models = {u"ember-14b"_s, u"strata-8b"_s};
    sleeper.modelContext = {{u"ember-14b"_s, 32768}, {u"strata-8b"_s, 65536}};
    sleeper.loaded = sleeper.models;
    sleeper.loadDelay = 3000ms;
    sleeper.tokensPerSecond = 35;
    sleeper.maxModels = 2;
    sleeper.maxReplyTokens = 200;
    auto *rtx3060 = new DemoBox(u"3060"_s, true, timing.engineStart, this);
    rtx3060->addEngine(u"main"_s, new FakeLlamaServer(sleeper));
    rtx3060->setPower(new DemoBoxPower(SleeperMac, timing.boot, rtx3060));
    rtx3060->setGpuMemory(9874, 12288);
    m_boxes.append(rtx3060);
}

bool DemoFleetSimulation::start(QString *error)
{
    for (DemoBox *b : std::as_const(m_boxes)) {
        if (!b->listen(error))
            return false;
    }
    return true;
}

DemoBox *DemoFleetSimulation::box(const QString &host) const
{
    for (DemoBox *b : m_boxes) {
        if (b->host() == host)
            return b;
    }
    return nullptr;
}

QJsonObject DemoFleetSimulation::describe() const
{
    QJsonArray boxes;
    for (const DemoBox *b : m_boxes)
        boxes.append(b->describe());
    return {{u"event"_s, u"fleet"_s}, {u"boxes"_s, boxes}};
}

} // namespace switchyard::fake
