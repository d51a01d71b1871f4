#include "app/remoterelayfeed.h"

#include "app/remoteeventstream.h"
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

const QByteArray OwnUserAgent = QByteArrayLiteral("switchyard-desktop/" SWITCHYARD_VERSION);

} // namespace

RemoteRelayFeed::RemoteRelayFeed(const QUrl &relay, const QString &adminToken, HistoryStore *store,
                                 std::chrono::milliseconds interval, QObject *parent)
    : QObject(parent)
    , m_relay(relay)
    , m_base(relayBase(relay))
    , m_token(adminToken.toUtf8())
    , m_store(store)
    , m_network(new QNetworkAccessManager(this))
    , m_interval(interval)
    , m_stream(new RemoteEventStream(m_network, [this] { return requestFor(u"/admin/stream"_s); }, this))
{
    m_timer.setInterval(interval);
    connect(&m_timer, &QTimer::timeout, this, &RemoteRelayFeed::poll);
    connect(m_stream, &RemoteEventStream::event, this, &RemoteRelayFeed::onStreamFrame);
    connect(m_stream, &RemoteEventStream::stateChanged, this, &RemoteRelayFeed::onStreamStateChanged);
}

RemoteRelayFeed::~RemoteRelayFeed() = default;

QUrl RemoteRelayFeed::relayBase(const QUrl &watched)
{
    QUrl base = watched.adjusted(QUrl::RemoveQuery | QUrl::RemoveFragment | QUrl::RemoveUserInfo);
    QString path = base.path();
    while (path.endsWith(u'/'))
        path.chop(1);
    for (const QLatin1StringView api : {"/v1"_L1, "/admin"_L1}) {
        if (path.endsWith(api))
            path.chop(api.size());
    }
    base.setPath(path);
    return base;
}

QUrl RemoteRelayFeed::clientUrl() const
{
    QUrl url = m_base;
    url.setPath(m_base.path() + u"/v1"_s);
    return url;
}

void RemoteRelayFeed::start()
{
    m_timer.start();
    poll();
    if (m_streamEnabled)
        m_stream->start();
}

void RemoteRelayFeed::setStreamRetryDelays(std::chrono::milliseconds first, std::chrono::milliseconds last)
{
    m_stream->setRetryDelays(first, last);
}

bool RemoteRelayFeed::isLive() const
{
    return m_stream->state() == RemoteEventStream::State::Open;
}

int RemoteRelayFeed::streamAttempts() const
{
    return m_stream->attempts();
}

QString RemoteRelayFeed::liveStatus() const
{
    const QString every = QString::number(double(m_interval.count()) / 1000.0);
    switch (m_stream->state()) {
    case RemoteEventStream::State::Off:
        return {};
    case RemoteEventStream::State::Open:
        return tr("live");
    case RemoteEventStream::State::Connecting:
        if (m_stream->failure() == RemoteEventStream::Failure::None)
            return {};   // the first attempt
        break;
    case RemoteEventStream::State::Waiting:
        break;
    }
    const QString retry = QString::number(double(m_stream->retryDelay().count()) / 1000.0);
    switch (m_stream->failure()) {
    case RemoteEventStream::Failure::Unsupported:
        return tr("polling every %1 s: this relay sends no live events (a version before them); asking again in %2 s")
            .arg(every, retry);
    case RemoteEventStream::Failure::Refused:
        return tr("polling every %1 s: the relay refused its live events (%2)").arg(every, m_stream->failureText());
    case RemoteEventStream::Failure::Cut:
    case RemoteEventStream::Failure::None:
        break;
    }
    return tr("polling every %1 s: the live events stopped (%2); trying again in %3 s").arg(every, m_stream->failureText(), retry);
}

void RemoteRelayFeed::refresh()
{
    if (m_pending > 0) {
        m_again = true;
        return;
    }
    if (m_timer.isActive())
        m_timer.start();   // the next timed poll counts from now
    poll();
}

void RemoteRelayFeed::track(const QString &pathAndQuery, std::function<void(QNetworkReply *)> read)
{
    ++m_pending;
    ++m_sent;
    QNetworkReply *reply = m_network->get(requestFor(pathAndQuery));
    connect(reply, &QNetworkReply::finished, this, [this, reply, read = std::move(read)] {
        reply->deleteLater();
        read(reply);   // may ask for the next page (and count it) before this one is done
        if (--m_pending > 0)
            return;
        emit pollFinished();
        if (m_again) {
            m_again = false;
            poll();
        }
    });
}

QNetworkRequest RemoteRelayFeed::requestFor(const QString &pathAndQuery) const
{
    QUrl url = m_base;
    const qsizetype q = pathAndQuery.indexOf(u'?');
    url.setPath(m_base.path() + pathAndQuery.left(q));
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
        refresh();
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

void RemoteRelayFeed::loadModel(const QString &alias, Done done)
{
    act("POST", u"/admin/models/load"_s, QJsonObject{{"model"_L1, alias}}, std::move(done));
}

void RemoteRelayFeed::unloadModel(const QString &alias, Done done)
{
    act("POST", u"/admin/models/unload"_s, QJsonObject{{"model"_L1, alias}}, std::move(done));
}

bool RemoteRelayFeed::readReply(QNetworkReply *reply, QJsonDocument *document)
{
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
    ++m_polls;
    track(u"/admin/hosts"_s, [this](QNetworkReply *reply) {
        QJsonDocument doc;
        if (!readReply(reply, &doc))
            return;
        setConnected(true, {});
        m_hosts = RemoteRelayJson::hosts(doc.array());
        emit hostsChanged();
        fetchHistory(reply);
    });
    track(u"/admin/models"_s, [this](QNetworkReply *reply) { readModels(reply); });
    track(u"/admin/requests?state=active"_s, [this](QNetworkReply *reply) {
        QJsonDocument doc;
        if (readReply(reply, &doc))
            readActive(doc.array());
    });
}

namespace {

// A number the relay sent in a header; -1 when it sent none.
qint64 headerNumber(QNetworkReply *reply, const char *name)
{
    bool ok = false;
    const qint64 n = reply->rawHeader(name).toLongLong(&ok);
    return ok ? n : -1;
}

} // namespace

void RemoteRelayFeed::fetchHistory(QNetworkReply *hostsReply)
{
    // Asked after the hosts' answer rather than with it: one round trip later, but an idle
    // relay is asked three things a poll instead of five.
    const bool sameHistory = !m_historyId.isEmpty() && QString::fromLatin1(hostsReply->rawHeader("Switchyard-History")) == m_historyId;
    const qint64 lastRequest = headerNumber(hostsReply, "Switchyard-Last-Request");
    const qint64 lastEvent = headerNumber(hostsReply, "Switchyard-Last-Event");
    if (!sameHistory || lastRequest < 0 || lastRequest > m_lastRequestId)
        fetchRequests();
    if (!sameHistory || lastEvent < 0 || lastEvent > m_lastEventId)
        fetchEvents();
}

// Pages from the cursor on, oldest first; the first poll starts a day back.
void RemoteRelayFeed::fetchRequests()
{
    QString query = u"/admin/requests?limit=%1&after_id=%2"_s.arg(PageSize).arg(std::max<qint64>(m_lastRequestId, 0));
    if (m_lastRequestId < 0)
        query += u"&since=%1"_s.arg(QDateTime::currentDateTime().addDays(-1).toSecsSinceEpoch());
    m_requestPagesOut = true;
    track(query, [this, generation = m_generation](QNetworkReply *reply) {
        if (generation == m_generation)
            m_requestPagesOut = false;
        QJsonDocument doc;
        if (!readReply(reply, &doc) || !currentHistory(reply, generation))
            return;
        if (readRequests(doc.array(), headerNumber(reply, "Switchyard-Last-Request")))
            fetchRequests();
        else
            catchUp();   // the stream told of more while this page was out
    });
}

void RemoteRelayFeed::fetchEvents()
{
    QString query = u"/admin/events?limit=%1&after_id=%2"_s.arg(PageSize).arg(std::max<qint64>(m_lastEventId, 0));
    if (m_lastEventId < 0)
        query += u"&since=%1"_s.arg(QDateTime::currentDateTime().addDays(-1).toSecsSinceEpoch());
    m_eventPagesOut = true;
    track(query, [this, generation = m_generation](QNetworkReply *reply) {
        if (generation == m_generation)
            m_eventPagesOut = false;
        QJsonDocument doc;
        if (!readReply(reply, &doc) || !currentHistory(reply, generation))
            return;
        if (readEvents(doc.array(), headerNumber(reply, "Switchyard-Last-Event")))
            fetchEvents();
        else
            catchUp();
    });
}

bool RemoteRelayFeed::currentHistory(QNetworkReply *reply, int generation)
{
    if (generation != m_generation)
        return false;
    const QString id = QString::fromLatin1(reply->rawHeader("Switchyard-History"));
    if (id.isEmpty() || id == m_historyId)
        return true;   // the same database (or a relay before the header: nothing to tell by)
    const bool first = m_historyId.isEmpty();
    m_historyId = id;
    if (first)
        return true;
    // A new database: its ids start again, below the cursors. Everything from the beginning.
    ++m_generation;
    m_lastRequestId = -1;
    m_lastEventId = -1;
    m_liveIds.clear();
    emit historyReplaced();
    fetchRequests();
    fetchEvents();
    return false;
}

void RemoteRelayFeed::readModels(QNetworkReply *reply)
{
    if (reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt() == 404)
        return;   // a relay from before /admin/models: its hosts' cards only
    QJsonDocument doc;
    if (readReply(reply, &doc))
        readModelsJson(doc.toJson(QJsonDocument::Compact));
}

void RemoteRelayFeed::readModelsJson(const QByteArray &json)
{
    if (const std::optional<QList<Model>> models = RemoteRelayJson::models(json)) {
        m_models = *models;
        m_modelsJson = json;
        emit modelsChanged();
    }
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
        RequestRecord r = RemoteRelayJson::request(o);
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

bool RemoteRelayFeed::readRequests(const QJsonArray &array, qint64 newest)
{
    // Oldest first from a relay that knows the cursor, newest first from one before it: copied
    // oldest first either way, each once (by the remote's id).
    QList<std::pair<RequestRecord, QString>> fresh;
    for (const QJsonValue &v : array) {
        const RequestRecord r = RemoteRelayJson::request(v.toObject());
        if (r.id > m_lastRequestId)
            fresh.append({r, liveKey(v.toObject())});
    }
    std::sort(fresh.begin(), fresh.end(), [](const auto &a, const auto &b) { return a.first.id < b.first.id; });
    const qint64 before = m_lastRequestId;
    m_lastRequestId = fresh.isEmpty() ? std::max<qint64>(m_lastRequestId, 0) : fresh.last().first.id;
    for (auto &[r, key] : fresh) {
        r.liveId = m_liveIds.take(key);   // replaces its row in flight
        r.id = 0;                         // the local store numbers its own rows
        if (m_store)
            m_store->record(r);
    }
    if (array.size() < PageSize)
        m_lastRequestId = std::max(m_lastRequestId, newest);   // nothing after the page (those of a day ago skipped)
    return array.size() >= PageSize && m_lastRequestId > before;
}

bool RemoteRelayFeed::readEvents(const QJsonArray &array, qint64 newest)
{
    QList<std::pair<qint64, std::optional<HistoryEvent>>> fresh;   // nullopt: a kind this window does not know
    for (const QJsonValue &v : array) {
        const QJsonObject o = v.toObject();
        const qint64 id = o.value("id"_L1).toInteger();
        if (id <= m_lastEventId)
            continue;
        fresh.append({id, RemoteRelayJson::event(o)});
    }
    std::sort(fresh.begin(), fresh.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
    const qint64 before = m_lastEventId;
    m_lastEventId = fresh.isEmpty() ? std::max<qint64>(m_lastEventId, 0) : fresh.last().first;
    for (const auto &[id, e] : std::as_const(fresh)) {
        if (m_store && e)
            m_store->recordEvent(*e);
    }
    if (array.size() < PageSize)
        m_lastEventId = std::max(m_lastEventId, newest);
    return array.size() >= PageSize && m_lastEventId > before;
}

void RemoteRelayFeed::onStreamStateChanged()
{
    const bool live = isLive();
    if (live != m_live) {
        m_live = live;
        // Live: the poll only as a safety net (a longer interval, as a test sets, stays). Not
        // live any more: polling again, at once (the stream may have missed its last moments).
        m_timer.setInterval(live ? std::max(m_interval, LiveSafetyInterval) : m_interval);
        if (!live) {
            if (m_timer.isActive())
                m_timer.start();
            refresh();
        }
    }
    emit liveChanged();   // the status's words change with each failure too
}

void RemoteRelayFeed::onStreamFrame(const QByteArray &name, const QByteArray &data)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(data, &error);
    if (error.error != QJsonParseError::NoError)
        return;   // not ours to read; the poll still covers it
    if (name == "request")
        onStreamRequest(doc.object());
    else if (name == "event")
        onStreamHistoryEvent(doc.object());
    else if (name == "active")
        readActive(QJsonArray{doc.object()});
    else if (name == "hosts") {
        m_hosts = RemoteRelayJson::hosts(doc.array());
        emit hostsChanged();
    } else if (name == "models")
        readModelsJson(data);
    else if (name == "hello")
        onStreamHello(doc.object());
}

void RemoteRelayFeed::onStreamHello(const QJsonObject &hello)
{
    setConnected(true, {});
    m_streamHistory = hello.value("history"_L1).toString();
    m_streamRequestId = hello.value("last_request"_L1).toInteger(-1);
    m_streamEventId = hello.value("last_event"_L1).toInteger(-1);
    if (!m_historyId.isEmpty() && m_streamHistory != m_historyId) {
        refresh();   // another history than the copies' (it restarted): the poll finds out and starts over
        return;
    }
    catchUp();   // what came while the stream was away
}

bool RemoteRelayFeed::streamOnThisHistory() const
{
    return !m_historyId.isEmpty() && m_streamHistory == m_historyId;
}

void RemoteRelayFeed::onStreamRequest(const QJsonObject &o)
{
    const qint64 id = o.value("id"_L1).toInteger();
    m_streamRequestId = std::max(m_streamRequestId, id);
    if (!streamOnThisHistory() || id <= m_lastRequestId)
        return;   // a poll copies it (or did)
    // The next after the cursor: copied now. After a gap (rows the stream did not carry: before it
    // opened), the pages from the cursor instead, this one with them.
    if (m_lastRequestId >= 0 && id == m_lastRequestId + 1)
        readRequests(QJsonArray{o}, -1);
    else
        catchUp();
}

void RemoteRelayFeed::onStreamHistoryEvent(const QJsonObject &o)
{
    const qint64 id = o.value("id"_L1).toInteger();
    m_streamEventId = std::max(m_streamEventId, id);
    if (!streamOnThisHistory() || id <= m_lastEventId)
        return;
    if (m_lastEventId >= 0 && id == m_lastEventId + 1)
        readEvents(QJsonArray{o}, -1);
    else
        catchUp();
}

void RemoteRelayFeed::catchUp()
{
    // Only from cursors a poll has set (the first poll pages from a day back itself), and one
    // chain of pages at a time: the chain's end comes back here.
    if (!streamOnThisHistory())
        return;
    if (!m_requestPagesOut && m_lastRequestId >= 0 && m_lastRequestId < m_streamRequestId)
        fetchRequests();
    if (!m_eventPagesOut && m_lastEventId >= 0 && m_lastEventId < m_streamEventId)
        fetchEvents();
}

} // namespace switchyard
