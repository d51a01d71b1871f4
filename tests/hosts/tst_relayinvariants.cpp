// Randomized, through the whole relay over loopback: random sequences of every kind of request a
// client sends (chat streamed and not, messages, completions, /props, loads and unloads of loaded,
// unloaded and unknown models on a router and a non-router engine, unknown models, bad bodies),
// clients that leave at random moments, engine starts that fail, switches and leases over the
// admin API, against host h1 with two fake engines. After every sequence: every client that
// stayed got exactly one whole answer, nothing is in flight, and h1 reads running 0, waiting 0,
// with balanced books and not stuck draining or switching; and no answer is a gateway error
// (the relay's own 5xx). Host h1 batches by engine (dwell 50 ms, bound 300 ms), so its
// wake-up timer is part of every sequence.
//
// A failure prints its seed; SWITCHYARD_FUZZ_SEED=N replays it, SWITCHYARD_FUZZ_SECONDS bounds
// the run (default 15).
#include "switchingfixture.h"

#include "rawhttpclient.h"
#include "relay/relay.h"

#include <QElapsedTimer>
#include <QRegularExpression>
#include <QTest>
#include <QTimer>

#include <memory>
#include <random>

using namespace switchyard;
using namespace switchyard::test;
using namespace Qt::StringLiterals;

namespace {

QByteArray releaseLease()
{
    return "DELETE /admin/hosts/h1/lease HTTP/1.1\r\nHost: relay\r\nContent-Length: 0\r\n\r\n";
}

struct Sent
{
    std::unique_ptr<RawHttpClient> client;
    QByteArray what;      // for the failure message
    bool cut = false;
};

class RelaySequence
{
public:
    RelaySequence(SwitchingFixture &f, quint64 seed)
        : m_f(f)
        , m_rng(seed)
    {
    }

    QString run()
    {
        m_f.driver->startDelay = std::chrono::milliseconds(pick(0, 40));
        const int steps = pick(2, 12);
        for (int i = 0; i < steps; ++i) {
            act();
            if (chance(0.5))
                QTest::qWait(pick(0, 30));   // let some of it happen before the next step
        }
        // The end: engines start again, the lease goes, and everything must come to rest.
        m_f.driver->failing.clear();
        send(releaseLease(), false);
        HostController *host = m_f.relay->hostController(u"h1"_s);
        const bool rested = QTest::qWaitFor([&] {
            for (const Sent &s : m_sent) {
                if (!s.cut && s.client->completedResponses() < 1)
                    return false;
            }
            return m_f.relay->relay()->requestsInFlight() == 0 && host->runningRequests() == 0
                && host->waitingRequests() == 0 && host->state() != HostStateMachine::State::Draining
                && host->state() != HostStateMachine::State::Switching;
        }, 20000);
        if (!rested) {
            QStringList open;
            for (const Sent &s : m_sent) {
                if (!s.cut && s.client->completedResponses() < 1)
                    open << QString::fromUtf8(s.what);
            }
            return u"not at rest after 20 s: in flight %1, running %2, waiting %3, state %4, unanswered: %5"_s
                .arg(m_f.relay->relay()->requestsInFlight()).arg(host->runningRequests())
                .arg(host->waitingRequests()).arg(host->stateName(), open.join(u" | "_s));
        }
        if (QString e = host->bookkeepingError(); !e.isEmpty())
            return e;
        QTest::qWait(5);   // anything extra a broken relay would still write arrives now
        for (const Sent &s : m_sent) {
            if (s.cut)
                continue;
            if (s.client->responses().size() != 1)
                return u"%1 got %2 answers"_s.arg(QString::fromUtf8(s.what)).arg(s.client->responses().size());
            const int status = s.client->responses().at(0).status;
            // The engine's own 500s pass through (a load that failed because the model was
            // unloaded meanwhile, as llama-server answers); a gateway error is the relay's own.
            if (status > 500)
                return u"%1 got %2: %3"_s.arg(QString::fromUtf8(s.what)).arg(status)
                    .arg(QString::fromUtf8(s.client->responses().at(0).body.left(300)));
        }
        return {};
    }

private:
    int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(m_rng); }
    bool chance(double p) { return std::bernoulli_distribution(p)(m_rng); }
    QByteArray oneOf(const QList<QByteArray> &options) { return options.at(pick(0, int(options.size()) - 1)); }

    void act()
    {
        const int what = pick(0, 99);
        if (what < 8) {
            m_f.driver->failing = chance(0.5) ? QStringList{u"b"_s} : QStringList{};
            return;
        }
        if (what < 13) {
            send(RawHttpClient::post("/admin/hosts/h1/lease", R"({"owner":"fuzz","ttl_s":60})"), chance(0.3));
            return;
        }
        if (what < 17) {
            send(releaseLease(), false);
            return;
        }
        if (what < 24) {
            send(RawHttpClient::post("/admin/hosts/h1/engine", R"({"engine":")" + oneOf({"a", "b", "zz"}) + R"(","by":"fuzz"})"),
                 chance(0.2));
            return;
        }
        const QByteArray model = oneOf({"h1-alpha", "h1-alpha", "h1-beta", "h1-beta", "h1-nope", "x-none"});
        const QByteArray stream = chance(0.5) ? "true" : "false";
        const QByteArray chat = R"({"model":")" + model + R"(","messages":[{"role":"user","content":"hi"}],"max_tokens":)"
            + QByteArray::number(pick(1, 12)) + R"(,"stream":)" + stream + "}";
        QByteArray raw;
        switch (pick(0, 9)) {
        case 0: case 1: raw = RawHttpClient::post("/v1/chat/completions", chat); break;
        case 2: raw = RawHttpClient::post("/v1/messages", chat); break;
        case 3: raw = RawHttpClient::post("/v1/completions", R"({"model":")" + model + R"(","prompt":"hi","max_tokens":3})"); break;
        case 4: raw = RawHttpClient::get("/props?model=" + model); break;
        case 5: raw = RawHttpClient::post("/models/load", R"({"model":")" + model + R"("})"); break;
        case 6: raw = RawHttpClient::post("/models/unload", R"({"model":")" + model + R"("})"); break;
        case 7: raw = RawHttpClient::post("/v1/chat/completions", oneOf({"{not json", R"({"model":5})", R"({"messages":[]})", "[1]"})); break;
        default: raw = RawHttpClient::post("/v1/chat/completions", chat); break;
        }
        send(raw, chance(0.25));
    }

    void send(const QByteArray &raw, bool cutLater)
    {
        Sent s;
        s.client = std::make_unique<RawHttpClient>(m_f.port());
        s.what = raw.left(raw.indexOf("\r\n")) + ' ' + raw.mid(raw.indexOf("\r\n\r\n") + 4).left(80);
        if (!s.client->connectToServer()) {
            m_sent.push_back(std::move(s));
            return;
        }
        s.client->send(raw);
        if (cutLater) {
            // Leaves at a random moment: waiting, while its answer streams, or after it.
            s.cut = true;
            RawHttpClient *client = s.client.get();
            QTimer::singleShot(pick(0, 150), client, [client] { client->close(); });
        }
        m_sent.push_back(std::move(s));
    }

    SwitchingFixture &m_f;
    std::mt19937_64 m_rng;
    std::vector<Sent> m_sent;
};

} // namespace

class TestRelayInvariants : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void everySequenceComesToRestWithOneAnswerEach();
};

void TestRelayInvariants::everySequenceComesToRestWithOneAnswerEach()
{
    // A move a request's lifecycle refuses is a bug (relay/requestlifecycle), logged: it fails here
    // as in the relay's own tests, whatever else the sequence shows.
    QTest::failOnWarning(QRegularExpression(u": no move \\S+ from "_s));
    SwitchingFixture f;
    // The batch policy with a short dwell and bound: the host's wake-up timer fires for real.
    f.scheduling.policy = SchedulingConfig::Policy::Batch;
    f.scheduling.dwell = std::chrono::milliseconds(50);
    f.scheduling.maxWait = std::chrono::milliseconds(300);
    f.tune = [](fake::FakeOptions &a, fake::FakeOptions &b) {
        a.tokensPerSecond = 400;
        b.tokensPerSecond = 400;
        b.loadDelay = std::chrono::milliseconds(20);
    };
    QVERIFY(f.start());
    const bool replay = qEnvironmentVariableIsSet("SWITCHYARD_FUZZ_SEED");
    const int seconds = qEnvironmentVariableIsSet("SWITCHYARD_FUZZ_SECONDS") ? qEnvironmentVariableIntValue("SWITCHYARD_FUZZ_SECONDS") : 15;
    const quint64 base = replay ? qgetenv("SWITCHYARD_FUZZ_SEED").toULongLong() : std::random_device{}();
    QElapsedTimer clock;
    clock.start();
    int sequences = 0;
    do {
        const quint64 seed = base + quint64(sequences);
        const qsizetype eventsBefore = f.events.size();
        QString failure = RelaySequence(f, seed).run();
        if (!failure.isEmpty()) {
            // What the host did meanwhile: the replay of a shared relay is not exact, this is.
            for (qsizetype i = eventsBefore; i < f.events.size(); ++i)
                failure += u"\n  %1 ms: %2"_s.arg(f.eventTimesMs.at(i)).arg(f.events.at(i).toString());
        }
        if (!failure.isEmpty())
            QFAIL(qPrintable(u"seed %1: %2 (replay: SWITCHYARD_FUZZ_SEED=%1 %3 — sequences share one relay, so "
                             "a replay starts from a fresh one)"_s.arg(seed).arg(failure, QCoreApplication::applicationFilePath())));
        ++sequences;
    } while (!replay && clock.elapsed() < seconds * 1000);
    qInfo("%d random sequences through the relay, every one came to rest with one answer each", sequences);
}

QTEST_GUILESS_MAIN(TestRelayInvariants)
#include "tst_relayinvariants.moc"
