#include "app/remoterelayjson.h"

#include "journal/waitreason.h"

#include <QJsonDocument>

#include <algorithm>

namespace switchyard {

using namespace Qt::StringLiterals;

namespace {

std::chrono::nanoseconds fromMs(const QJsonValue &v)
{
    return std::chrono::nanoseconds(qint64(v.toDouble() * 1e6));
}

} // namespace

QDateTime RemoteRelayJson::timeFrom(const QJsonValue &v)
{
    // "...+05:30" or "...Z": that instant, shown in this machine's zone.
    const QDateTime t = QDateTime::fromString(v.toString(), Qt::ISODateWithMs);
    return t.isValid() ? t.toLocalTime() : QDateTime();
}

RequestRecord RemoteRelayJson::request(const QJsonObject &o)
{
    RequestRecord r;
    r.id = o.value("id"_L1).toInteger();
    r.startedAt = timeFrom(o.value("started_at"_L1));
    r.method = o.value("method"_L1).toString();
    r.path = o.value("path"_L1).toString();
    r.model = o.value("model"_L1).toString();
    r.host = o.value("host"_L1).toString();
    r.engine = o.value("engine"_L1).toString();
    r.status = o.value("status"_L1).toInt();
    r.bytesOut = o.value("bytes"_L1).toInteger();
    r.duration = fromMs(o.value("duration_ms"_L1));
    if (o.value("ttfb_ms"_L1).isDouble())
        r.timeToFirstByte = fromMs(o.value("ttfb_ms"_L1));
    if (o.value("tokens"_L1).isDouble())
        r.streamedTokens = qint64(o.value("tokens"_L1).toDouble());
    if (o.value("tokens_per_s"_L1).isDouble())
        r.tokensPerSecond = o.value("tokens_per_s"_L1).toDouble();
    r.clientAddress = o.value("client"_L1).toString();
    r.userAgent = o.value("user_agent"_L1).toString();
    r.relayError = o.value("relay_error"_L1).toString();
    r.relayFacts = o.value("relay_facts"_L1).toObject();   // none from a relay before them
    r.bytesIn = o.value("bytes_in"_L1).toInteger();
    r.waited = fromMs(o.value("waited_ms"_L1));
    r.waitReason = WaitReason::fromString(o.value("wait_reason"_L1).toString());
    if (o.value("wait_until"_L1).isString())   // none from a relay before it
        r.waitUntil = timeFrom(o.value("wait_until"_L1));
    r.keyName = o.value("key"_L1).toString();
    if (o.value("tokens_in"_L1).isDouble())
        r.promptTokens = qint64(o.value("tokens_in"_L1).toDouble());
    return r;
}

std::optional<HistoryEvent> RemoteRelayJson::event(const QJsonObject &o)
{
    const std::optional<HistoryEvent::Kind> kind = HistoryEvent::kindFromName(o.value("kind"_L1).toString());
    if (!kind)
        return std::nullopt;   // a kind this window does not know (a newer relay)
    HistoryEvent e;
    e.kind = *kind;
    e.at = timeFrom(o.value("at"_L1));
    e.host = o.value("host"_L1).toString();
    e.engine = o.value("engine"_L1).toString();
    e.model = o.value("model"_L1).toString();
    e.detail = o.value("detail"_L1).toString();
    e.facts = o.value("facts"_L1).toObject();   // none from a relay before them
    if (o.value("duration_ms"_L1).isDouble())
        e.duration = std::chrono::milliseconds(qint64(o.value("duration_ms"_L1).toDouble()));
    return e;
}

QList<RemoteRelayJson::Host> RemoteRelayJson::hosts(const QJsonArray &array)
{
    QList<Host> out;
    for (const QJsonValue &v : array) {
        const QJsonObject o = v.toObject();
        Host h;
        h.state.host = o.value("host"_L1).toString();
        if (h.state.host.isEmpty())
            continue;
        h.state.engine = o.value("engine"_L1).toString();
        h.state.url = QUrl(o.value("url"_L1).toString());
        h.controllerState = o.value("state"_L1).toString();
        h.state.reachable = o.contains("reachable"_L1) ? o.value("reachable"_L1).toBool() : h.controllerState != "down"_L1;
        h.state.everFetched = true;
        h.state.roundTripMs = qint64(o.value("round_trip_ms"_L1).toDouble(-1));
        h.state.lastPoll = timeFrom(o.value("last_poll"_L1));
        // A relay that sends the facts of a failed switch (last_failure): the card words them, and
        // its last error is the poll's, as the relay's own window has it. One before them: its
        // English, or else the poll's.
        if (const QJsonValue failure = o.value("last_failure"_L1); failure.isObject())
            h.lastFailure = EngineFailure::fromJson(failure.toObject());
        if (!h.lastFailure)
            h.state.lastError = o.value("last_error"_L1).toString();
        if (h.state.lastError.isEmpty())
            h.state.lastError = o.value("poll_error"_L1).toString();
        for (const QJsonValue &v : o.value("models"_L1).toArray()) {
            const QJsonObject m = v.toObject();
            const QString key = m.value("key"_L1).toString();
            h.state.models.append(ModelEntry{key, m.value("status"_L1).toString(), {}});
            const LoadProgress progress = LoadProgress::fromJson(m.value("progress"_L1).toObject());
            if (!progress.isEmpty())
                h.state.loadProgress.insert(key, progress);
        }
        h.targetEngine = o.value("target_engine"_L1).toString();
        for (const QJsonValue &e : o.value("engines"_L1).toArray())
            h.engines.append(e.toString());
        h.driver = o.value("driver"_L1).toString();
        const QJsonObject lease = o.value("lease"_L1).toObject();
        h.leaseOwner = lease.value("owner"_L1).toString();
        h.leaseUntil = timeFrom(lease.value("until"_L1));
        h.gpus = GpuReading::fromJson(o.value("gpus"_L1).toArray());
        h.inFlight = o.value("running"_L1).toInt() + o.value("waiting"_L1).toInt();
        h.live = o.value("live"_L1).toBool();
        h.agentProtocol = o.value("agent_protocol"_L1).toInt();
        h.relayProtocol = o.value("relay_protocol"_L1).toInt();
        const QJsonObject next = o.value("next_switch"_L1).toObject();
        h.nextEngine = next.value("engine"_L1).toString();
        h.nextWaiting = next.value("waiting"_L1).toInt();
        h.nextDue = timeFrom(next.value("due"_L1));
        h.nextLatest = timeFrom(next.value("latest"_L1));
        out.append(h);
    }
    std::sort(out.begin(), out.end(), [](const Host &a, const Host &b) { return a.state.host < b.state.host; });
    return out;
}

std::optional<QList<RemoteRelayJson::Model>> RemoteRelayJson::models(const QByteArray &json)
{
    QString error;
    const std::optional<QList<ModelEntry>> entries = parseModelList(json, &error);
    if (!entries)
        return std::nullopt;
    QList<Model> out;
    for (const ModelEntry &e : *entries) {
        const QJsonObject proxy = e.raw.value("proxy"_L1).toObject();
        Model m;
        m.alias = e.key;   // the relay lists each model by its alias
        m.entry = e;
        m.entry.key = proxy.value("key"_L1).toString();
        m.host = proxy.value("host"_L1).toString();
        m.key = m.entry.key;
        m.engine = proxy.value("engine"_L1).toString();
        m.context = qint64(proxy.value("n_ctx"_L1).toDouble(double(e.contextSize().value_or(0))));
        const QJsonArray replicas = proxy.value("replicas"_L1).toArray();
        if (!replicas.isEmpty()) {
            QStringList hosts;
            for (const QJsonValue &r : replicas) {
                const QJsonObject target = r.toObject();
                hosts.append(target.value("host"_L1).toString());
                m.replicas.append(Catalog::aliasFor(target.value("host"_L1).toString(), target.value("key"_L1).toString()));
            }
            m.host = hosts.join(u", "_s);
        }
        if (!m.alias.isEmpty())
            out.append(m);
    }
    return out;
}

} // namespace switchyard
