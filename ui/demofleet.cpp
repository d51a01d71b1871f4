#include "demofleet.h"

#include "fakellamaserver.h"

#include <QCoreApplication>

namespace switchyard::fake {

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

DemoFleet::DemoFleet(QObject *parent)
    : QObject(parent)
{
    FakeOptions big;
    big.models = {u"flint-40b"_s, u"flint-40b-256k"_s, u"qwen38-27b-128k"_s};
    big.modelContext = {{u"flint-40b"_s, 131072}, {u"flint-40b-256k"_s, 262144}, {u"qwen38-27b-128k"_s, 131072}};
    big.loadDelay = 2500ms;
    big.tokensPerSecond = 45;
    big.maxModels = 1;
    big.loaded = {u"flint-40b"_s};
    big.maxReplyTokens = 200;   // clients ask for up to 32000; a demo answer should end in seconds
    m_boxes.append({u"3090"_s, new FakeLlamaServer(big, this)});

    FakeOptions small;
    small.models = {u"laguna-xs-q8"_s, u"strata-8b"_s};
    small.modelContext = {{u"laguna-xs-q8"_s, 32768}, {u"strata-8b"_s, 65536}};
    small.loadDelay = 4000ms;
    small.tokensPerSecond = 25;
    small.maxModels = 2;
    small.maxReplyTokens = 200;
    m_boxes.append({u"a9"_s, new FakeLlamaServer(small, this)});
}

DemoFleet::~DemoFleet() = default;

bool DemoFleet::start(QString *error)
{
    for (const Box &box : std::as_const(m_boxes)) {
        if (!box.server->listen(QHostAddress::LocalHost, 0)) {
            *error = QCoreApplication::translate("DemoFleet", "simulated host %1 cannot listen on loopback").arg(box.name);
            return false;
        }
    }
    return true;
}

QStringList DemoFleet::upstreamFlags() const
{
    QStringList flags;
    for (const Box &box : m_boxes)
        flags.append(box.name + u'=' + box.server->baseUrl().toString());
    return flags;
}

} // namespace switchyard::fake
