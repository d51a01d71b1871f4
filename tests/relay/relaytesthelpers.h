#pragma once

#include "rawhttpclient.h"
#include "relayfixture.h"

#include "journal/journalformat.h"
#include "app/idlememorytrimmer.h"
#include "http/httpheaders.h"
#include "relay/jsonmodelfield.h"
#include "relay/relay.h"
#include "relay/streamstats.h"
#include "common/clock.h"
#include "store/historystore.h"
#include "store/requestquery.h"

#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTest>
#include <QTimer>

#include <algorithm>
#include <memory>

namespace relaytest {

using namespace switchyard;
using namespace switchyard::test;
using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

// A move a request's lifecycle refuses is a bug (relay/requestlifecycle), logged: it fails the
// test. Called from each test's init().
inline void failOnLifecycleBugs()
{
    QTest::failOnWarning(QRegularExpression(u": no move \\S+ from "_s));
}

inline fake::FakeOptions routerOptions(double tokensPerSecond = 100)
{
    fake::FakeOptions o;
    o.models = {u"alpha"_s, u"beta"_s};
    o.loaded = {u"alpha"_s};
    o.loadDelay = 200ms;
    o.tokensPerSecond = tokensPerSecond;
    return o;
}

inline QByteArray chatBody(const QByteArray &model, int maxTokens, bool stream = true)
{
    return R"({"model":")" + model + R"(","messages":[{"role":"user","content":"Hello there"}],"max_tokens":)"
        + QByteArray::number(maxTokens) + (stream ? R"(,"stream":true})" : "}");
}

inline int countEvents(const QByteArray &sse)
{
    return int(sse.count("data: "));
}

inline void quickWaiting(Config &c)
{
    c.waiting.early200After = 200ms;
    c.waiting.commentEvery = 300ms;
}

} // namespace relaytest
