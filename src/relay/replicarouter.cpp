#include "relay/replicarouter.h"

#include "catalog/catalog.h"
#include "hosts/hostcontroller.h"
#include "upstream/upstreamexchange.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QUrl>

namespace switchyard {

using namespace Qt::StringLiterals;

ReplicaRouter::ReplicaRouter(Catalog *catalog, UpstreamPool *pool, std::chrono::milliseconds connectTimeout,
                             QObject *parent)
    : QObject(parent)
    , m_catalog(catalog)
    , m_pool(pool)
    , m_connectTimeout(connectTimeout)
{
    for (const ReplicaSet &set : catalog->replicaSets()) {
        for (const ReplicaSet::Target &t : set.targets)
            m_targets.insert(t.host + u'\n' + t.key);
    }
    if (!m_targets.isEmpty())
        connect(m_catalog, &Catalog::hostRefreshed, this, &ReplicaRouter::readSlots);
}

ReplicaRouter::~ReplicaRouter() = default;

ReplicaChooser::Replica ReplicaRouter::stateOf(const ModelRoute::Target &target) const
{
    ReplicaChooser::Replica r;
    const Catalog::HostState *host = m_catalog->host(target.host);
    if (!host) {
        r.down = true;
        return r;
    }
    const HostController *controller = m_controllers.value(target.host);
    const QString engine = m_catalog->engineFor(target.host, target.key);
    r.leased = controller && (!controller->leaseOwner().isEmpty()
                              || controller->state() == HostStateMachine::State::Leased);
    const bool switchable = controller && controller->canSwitch();
    if (!host->reachable) {
        // A host that cannot switch is down until its list reads again; one that can is down
        // only when its engine failed to start, or when the engine it runs is the one needed.
        r.down = !switchable || controller->state() == HostStateMachine::State::Down || host->engine == engine;
    }
    if (controller && controller->state() == HostStateMachine::State::Down)
        r.down = true;
    r.engineUp = host->reachable && !engine.isEmpty() && host->engine == engine
            && (!controller || controller->state() == HostStateMachine::State::Serving
                || controller->state() == HostStateMachine::State::Unknown);
    const std::optional<ModelEntry> entry = m_catalog->model(target.host, target.key);
    r.modelLoaded = r.engineUp && entry && entry->status == "loaded"_L1;
    r.inFlight = inFlight(target);
    r.totalSlots = totalSlots(target.host, target.key);
    r.waiting = controller ? controller->waitingRequests() : 0;
    return r;
}

quint64 ReplicaRouter::conversationKey(const QString &clientKey, quint64 promptPrefix)
{
    if (!promptPrefix)
        return 0;
    return quint64(qHash(clientKey, size_t(promptPrefix))) | 1;
}

ReplicaRouter::Plan ReplicaRouter::plan(const ModelRoute &route, quint64 conversation) const
{
    QList<ReplicaChooser::Replica> states;
    std::optional<int> previous;
    const QString last = conversation ? m_conversations.value(conversation) : QString();
    for (int i = 0; i < route.replicas.size(); ++i) {
        states.append(stateOf(route.replicas.at(i)));
        if (!last.isEmpty() && route.replicas.at(i).host == last)
            previous = i;
    }
    Plan plan;
    plan.choice = m_chooser.choose(states, previous);
    for (int i : m_chooser.order(states, previous))
        plan.order.append(route.replicas.at(i));
    return plan;
}

void ReplicaRouter::finished(const ModelRoute::Target &target)
{
    auto it = m_inFlight.find(target.host + u'\n' + target.key);
    if (it != m_inFlight.end() && --*it <= 0)
        m_inFlight.erase(it);
}

void ReplicaRouter::served(quint64 conversation, const QString &host)
{
    if (!conversation)
        return;
    if (!m_conversations.contains(conversation)) {
        m_conversationOrder.append(conversation);
        if (m_conversationOrder.size() > MaxConversations)
            m_conversations.remove(m_conversationOrder.takeFirst());
    }
    m_conversations.insert(conversation, host);
}

void ReplicaRouter::readSlots(const QString &host)
{
    const Catalog::HostState *state = m_catalog->host(host);
    if (!state)
        return;
    for (const QString &id : std::as_const(m_targets)) {
        if (!id.startsWith(host + u'\n'))
            continue;
        const QString key = id.mid(host.size() + 1);
        const std::optional<ModelEntry> entry = m_catalog->model(host, key);
        if (!state->reachable || !entry || entry->status != "loaded"_L1) {
            m_slots.remove(id);   // read again once it is loaded: it may come back with others
            continue;
        }
        if (m_slots.contains(id) || m_reading.contains(id))
            continue;
        UpstreamExchange::Request request;
        request.base = state->url;
        const bool router = !m_catalog->isExplicitModel(host, state->engine, key);
        request.target = router ? "/props?model=" + QUrl::toPercentEncoding(key) : QByteArray("/props");
        if (!state->apiKey.isEmpty())
            request.headers.append({"Authorization", "Bearer " + state->apiKey.toUtf8()});
        request.connectTimeout = m_connectTimeout;
        request.inactivityTimeout = m_connectTimeout;
        auto *exchange = new UpstreamExchange(m_pool, request, this);
        auto body = std::make_shared<QByteArray>();
        m_reading.insert(id);
        connect(exchange, &UpstreamExchange::bodyData, this, [body](const QByteArray &d) {
            if (body->size() < 1024 * 1024)
                body->append(d);
        });
        connect(exchange, &UpstreamExchange::finished, this, [this, id, exchange, body] {
            m_reading.remove(id);
            const int total = QJsonDocument::fromJson(*body).object().value("total_slots"_L1).toInt();
            if (exchange->status() == 200 && total > 0)
                m_slots.insert(id, total);
            exchange->deleteLater();
        });
        connect(exchange, &UpstreamExchange::failed, this, [this, id, exchange] {
            m_reading.remove(id);
            exchange->deleteLater();
        });
        exchange->start();
    }
}

} // namespace switchyard
