#include "app/remoterelayfeed.h"

#include "store/historystore.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QUrlQuery>

#include <algorithm>

namespace switchyard {

using namespace Qt::StringLiterals;

namespace {

std::chrono::nanoseconds fromMs(const QJsonValue &v)
{
    return std::chrono::nanoseconds(qint64(v.toDouble() * 1e6));
}

QDateTime timeFrom(const QJsonValue &v)
{
    return QDateTime::fromString(v.toString(), Qt::ISODateWithMs).toLocalTime();
}

const QByteArray OwnUserAgent = QByteArrayLiteral("switchyard-desktop/" SWITCHYARD_VERSION);

// The first poll copies the last day; later ones what is new since.
constexpr int FirstLimit = 1000;
constexpr int NextLimit = 200;

} // namespace

RemoteRelayFeed::RemoteRelayFeed(const QUrl &relay, const QString &adminToken, HistoryStore *store,
                                 std::chrono::milliseconds interval, QObject *parent)
    : QObject(parent)
    , m_relay(relay)
    , m_token(adminToken.toUtf8())
    , m_store(store)
    , m_network(new QNetworkAccessManager(this))
{
    m_timer.setInterval(interval);
    connect(&m_timer, &QTimer::timeout, this, &RemoteRelayFeed::poll);
}

RemoteRelayFeed::~RemoteRelayFeed() = default;

void RemoteRelayFeed::start()
{
    m_timer.start();
    poll();
}

QNetworkReply *RemoteRelayFeed::get(const QString &pathAndQuery)
{
    return m_network->get(requestFor(pathAndQuery));
}

QNetworkRequest RemoteRelayFeed::requestFor(const QString &pathAndQuery) const
{
    QUrl url = m_relay;
    const qsizetype q = pathAndQuery.indexOf(u'?');
    url.setPath(m_relay.path().chopped(m_relay.path().endsWith(u'/') ? 1 : 0) + pathAndQuery.left(q));
    if (q >= 0)
        url.setQuery(pathAndQuery.mid(q + 1));
    QNetworkRequest request(url);
    if (!m_token.isEmpty())
        request.setRawHeader("Authorization", "Bearer " + m_token);
    // The window's own calls: its log hides them, and the feed does not show them in flight.
    request.setHeader(QNetworkRequest::UserAgentHeader, OwnUserAgent);
    request.setTransferTimeout(int(std::max<qint64>(m_timer.interval() * 3, 5000)));
    return request;
}

void RemoteRelayFeed::act(const QByteArray &method, const QString &path, const QJsonObject &body, Done done)
{
    QNetworkRequest request = requestFor(path);
    // A switch or a lease answers once the host has drained: no transfer timeout of a poll's.
    request.setTransferTimeout(0);
    request.setHeader(QNetworkRequest::ContentTypeHeader, u"application/json"_s);
    QNetworkReply *reply = m_network->sendCustomRequest(request, method, QJsonDocument(body).toJson(QJsonDocument::Compact));
    connect(reply, &QNetworkReply::finished, this, [this, reply, done] {
        reply->deleteLater();
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        const QByteArray answer = reply->readAll();
        QString message = QJsonDocument::fromJson(answer).object().value("error"_L1).toObject().value("message"_L1).toString();
        if (status == 0)
            message = reply->errorString();
        if (done)
            done(status, message);
        poll();
    });
}

void RemoteRelayFeed::switchEngine(const QString &host, const QString &engine, Done done)
{
    act("POST", u"/admin/hosts/%1/engine"_s.arg(QString::fromLatin1(QUrl::toPercentEncoding(host))),
        QJsonObject{{"engine"_L1, engine}, {"by"_L1, u"desktop"_s}}, std::move(done));
}

void RemoteRelayFeed::takeLease(const QString &host, const QString &owner, std::chrono::seconds ttl, Done done)
{
    act("POST", u"/admin/hosts/%1/lease"_s.arg(QString::fromLatin1(QUrl::toPercentEncoding(host))),
        QJsonObject{{"owner"_L1, owner}, {"ttl_s"_L1, double(ttl.count())}}, std::move(done));
}

void RemoteRelayFeed::releaseLease(const QString &host, Done done)
{
    act("DELETE", u"/admin/hosts/%1/lease"_s.arg(QString::fromLatin1(QUrl::toPercentEncoding(host))), {}, std::move(done));
}

bool RemoteRelayFeed::readReply(QNetworkReply *reply, QJsonDocument *document)
{
    reply->deleteLater();
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (status == 0) {
        setConnected(false, reply->errorString());
        return false;
    }
    const QByteArray body = reply->readAll();
    if (status != 200) {
        QString message = QJsonDocument::fromJson(body).object().value("error"_L1).toObject().value("message"_L1).toString();
        if (message.isEmpty())
            message = QString::fromUtf8(body.left(200)).trimmed();
        setConnected(false, status == 401 || status == 403 ? tr("%1: the relay refused the admin token: %2").arg(status).arg(message)
                                                           : tr("%1: %2").arg(status).arg(message));
        return false;
    }
    QJsonParseError error;
    *document = QJsonDocument::fromJson(body, &error);
    if (error.error != QJsonParseError::NoError) {
        setConnected(false, tr("%1 answered with something that is not JSON").arg(reply->url().path()));
        return false;
    }
    return true;
}

void RemoteRelayFeed::setConnected(bool connected, const QString &error)
{
    const bool changed = connected != m_connected || error != m_error;
    m_connected = connected;
    m_error = error;
    if (changed)
        emit connectionChanged(connected);
}

void RemoteRelayFeed::poll()
{
    if (m_pending > 0)
        return;   // the last poll is still out: a slow relay is not asked twice
    m_pending = 4;
    auto done = [this] { --m_pending; };

    QNetworkReply *hosts = get(u"/admin/hosts"_s);
    connect(hosts, &QNetworkReply::finished, this, [this, hosts, done] {
        done();
        QJsonDocument doc;
        if (!readReply(hosts, &doc))
            return;
        setConnected(true, {});
        m_hosts = hostsFromJson(doc.array());
        emit hostsChanged();
    });

    const bool first = m_lastRequestId < 0;
    const QString since = QString::number(QDateTime::currentDateTime().addDays(-1).toSecsSinceEpoch());
    QNetworkReply *requests = get(u"/admin/requests?limit=%1&since=%2"_s.arg(first ? FirstLimit : NextLimit).arg(since));
    connect(requests, &QNetworkReply::finished, this, [this, requests, done] {
        done();
        QJsonDocument doc;
        if (readReply(requests, &doc))
            readRequests(doc.array());
    });

    QNetworkReply *active = get(u"/admin/requests?state=active"_s);
    connect(active, &QNetworkReply::finished, this, [this, active, done] {
        done();
        QJsonDocument doc;
        if (readReply(active, &doc))
            readActive(doc.array());
    });

    QNetworkReply *events = get(u"/admin/events?limit=%1&since=%2"_s.arg(m_lastEventId < 0 ? FirstLimit : NextLimit).arg(since));
    connect(events, &QNetworkReply::finished, this, [this, events, done] {
        done();
        QJsonDocument doc;
        if (readReply(events, &doc))
            readEvents(doc.array());
    });
}

// The same request in flight and finished: the relay's liveId is not in its history.
QString RemoteRelayFeed::liveKey(const QJsonObject &o)
{
    const qint64 started = QDateTime::fromString(o.value("started_at"_L1).toString(), Qt::ISODateWithMs).toMSecsSinceEpoch();
    return QString::number(started) + u'\n' + o.value("method"_L1).toString() + u'\n'
           + o.value("path"_L1).toString() + u'\n' + o.value("client"_L1).toString();
}

void RemoteRelayFeed::readActive(const QJsonArray &array)
{
    const auto now = std::chrono::steady_clock::now();
    if (m_liveIds.size() > 10000)
        m_liveIds.clear();   // finished records that never came (pruned, or past the poll's limit)
    for (const QJsonValue &v : array) {
        const QJsonObject o = v.toObject();
        RequestRecord r = requestFromJson(o);
        r.liveId = quint64(o.value("live_id"_L1).toDouble());
        if (r.liveId == 0 || r.userAgent.startsWith("switchyard-desktop/"_L1))
            continue;   // this very poll, or the window's own load
        // Its age and wait so far, on this machine's steady clock.
        r.startedSteady = now - std::chrono::duration_cast<std::chrono::steady_clock::duration>(r.duration);
        const QString state = o.value("state"_L1).toString();
        const RequestPhase phase = state == "waiting"_L1    ? RequestPhase::Waiting
                                   : state == "upstream"_L1  ? RequestPhase::Upstream
                                   : state == "streaming"_L1 ? RequestPhase::Streaming
                                                             : RequestPhase::Arrived;
        m_liveIds.insert(liveKey(o), r.liveId);
        emit requestActive(r, phase);
    }
}

void RemoteRelayFeed::readRequests(const QJsonArray &array)
{
    // Newest first; copied oldest first, each once (by the remote's id).
    QList<RequestRecord> fresh;
    qint64 newest = m_lastRequestId;
    for (const QJsonValue &v : array) {
        RequestRecord r = requestFromJson(v.toObject());
        if (r.id > m_lastRequestId) {
            r.liveId = m_liveIds.take(liveKey(v.toObject()));   // replaces its row in flight
            fresh.prepend(r);
        }
        newest = std::max(newest, r.id);
    }
    m_lastRequestId = std::max<qint64>(newest, 0);
    if (!m_store)
        return;
    for (RequestRecord r : std::as_const(fresh)) {
        r.id = 0;   // the local store numbers its own rows
        m_store->record(r);
    }
}

void RemoteRelayFeed::readEvents(const QJsonArray &array)
{
    QList<HistoryEvent> fresh;
    qint64 newest = m_lastEventId;
    for (const QJsonValue &v : array) {
        const QJsonObject o = v.toObject();
        const qint64 id = o.value("id"_L1).toInteger();
        newest = std::max(newest, id);
        if (id <= m_lastEventId)
            continue;
        if (const std::optional<HistoryEvent> e = eventFromJson(o))
            fresh.prepend(*e);
    }
    m_lastEventId = std::max<qint64>(newest, 0);
    if (!m_store)
        return;
    for (const HistoryEvent &e : std::as_const(fresh))
        m_store->recordEvent(e);
}

RequestRecord RemoteRelayFeed::requestFromJson(const QJsonObject &o)
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
    r.bytesIn = o.value("bytes_in"_L1).toInteger();
    r.waited = fromMs(o.value("waited_ms"_L1));
    r.waitReason = WaitReason::fromString(o.value("wait_reason"_L1).toString());
    r.keyName = o.value("key"_L1).toString();
    if (o.value("tokens_in"_L1).isDouble())
        r.promptTokens = qint64(o.value("tokens_in"_L1).toDouble());
    return r;
}

std::optional<HistoryEvent> RemoteRelayFeed::eventFromJson(const QJsonObject &o)
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
    if (o.value("duration_ms"_L1).isDouble())
        e.duration = std::chrono::milliseconds(qint64(o.value("duration_ms"_L1).toDouble()));
    return e;
}

QList<RemoteRelayFeed::Host> RemoteRelayFeed::hostsFromJson(const QJsonArray &array)
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
        out.append(h);
    }
    std::sort(out.begin(), out.end(), [](const Host &a, const Host &b) { return a.state.host < b.state.host; });
    return out;
}

} // namespace switchyard
