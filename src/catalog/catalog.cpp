#include "catalog/catalog.h"

#include "catalog/cataloglogging.h"
#include "catalog/enginememory.h"
#include "common/clock.h"
#include "upstream/upstreamexchange.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QScopeGuard>
#include <QSet>

#include <algorithm>

namespace switchyard {

using namespace Qt::StringLiterals;

namespace {

// A router lists a model it has unloaded without its "meta": the one it showed while the model
// was loaded is kept, so its context size is still known (clients are told it, see
// modelsJson()). True when `now` shows a context size that `before` did not.
bool carryContextSizes(const QList<ModelEntry> &before, QList<ModelEntry> *now)
{
    bool learned = false;
    for (ModelEntry &m : *now) {
        const auto was = std::find_if(before.begin(), before.end(), [&m](const ModelEntry &b) { return b.key == m.key; });
        const std::optional<qint64> size = m.contextSize();
        if (size)
            learned = learned || was == before.end() || was->contextSize() != size;
        else if (was != before.end() && was->contextSize())
            m.raw.insert("meta"_L1, was->raw.value("meta"_L1));
    }
    return learned;
}

// The context size last seen for a key on one of the engines, 0 when none was.
qint64 rememberedContextSize(const Catalog::EngineModels &engine, const QString &key)
{
    for (const ModelEntry &m : engine.lastSeen) {
        if (m.key == key)
            return m.contextSize().value_or(0);
    }
    return 0;
}

// The entry of a configured model in an engine's own answer: by its key, or the only entry of a
// server that serves the only configured model.
QJsonObject ownEntry(const QList<ModelEntry> &answered, const QString &key, qsizetype configured)
{
    for (const ModelEntry &m : answered) {
        if (m.key == key)
            return m.raw;
    }
    return answered.size() == 1 && configured == 1 ? answered.first().raw : QJsonObject();
}

} // namespace


Catalog::Catalog(const Config &config, UpstreamPool *pool, const Clock *clock, QObject *parent)
    : QObject(parent)
    , m_pool(pool)
    , m_clock(clock ? clock : &systemClock())
    , m_connectTimeout(config.limits.upstreamConnectTimeout)
    , m_replicaSets(ReplicaSet::fromConfig(config))
{
    for (const HostConfig &h : config.hosts) {
        if (h.engines.isEmpty())
            continue;
        HostState state;
        state.host = h.name;
        state.engine = h.engines.first().name;
        state.url = h.engines.first().url;
        state.apiKey = h.apiKey;
        for (const EngineConfig &e : h.engines)
            state.engines.append({e.name, e.url, e.models, {}, e.argv});
        m_order.append(h.name);
        m_hosts.insert(h.name, state);
    }
    m_pollTimer.setInterval(config.limits.pollInterval);
    connect(&m_pollTimer, &QTimer::timeout, this, &Catalog::refreshAll);
}

Catalog::~Catalog() = default;

void Catalog::setMemoryFile(const QString &path)
{
    m_memoryFile = path;
    const auto remembered = EngineMemory(path).load();
    for (HostState &h : m_hosts) {
        for (EngineModels &e : h.engines) {
            if (e.lastSeen.isEmpty())
                e.lastSeen = remembered.value(h.host).value(e.name);
        }
    }
    remember();   // what was learned before the file was named is kept too
    invalidate();
}

void Catalog::remember()
{
    if (m_memoryFile.isEmpty())
        return;
    QHash<QString, QHash<QString, QList<ModelEntry>>> models;
    for (const HostState &h : std::as_const(m_hosts)) {
        for (const EngineModels &e : h.engines) {
            if (!e.lastSeen.isEmpty())
                models[h.host][e.name] = e.lastSeen;
        }
    }
    EngineMemory(m_memoryFile).save(models);
}

void Catalog::start()
{
    refreshAll();
    m_pollTimer.start();
}

void Catalog::refreshAll()
{
    for (const QString &name : std::as_const(m_order))
        refreshHost(name);
}

void Catalog::refreshHost(const QString &host)
{
    auto it = m_hosts.find(host);
    if (it == m_hosts.end())
        return;
    fetch(*it);
}

void Catalog::markUnreachable(const QString &host, const QString &why)
{
    auto it = m_hosts.find(host);
    if (it == m_hosts.end())
        return;
    const bool changed = it->reachable || it->lastError != why;
    it->reachable = false;
    it->lastError = why;
    it->lastPoll = m_clock->now();
    if (changed) {
        qCDebug(lcCatalog) << "host" << host << "unreachable:" << why;
        invalidate();
        emit hostRefreshed(host);
    }
}

void Catalog::probe(const QString &host, QObject *context, std::function<void(bool reachable)> done)
{
    auto it = m_hosts.find(host);
    if (it == m_hosts.end()) {
        done(false);
        return;
    }
    // The next answer about this host, whether this read's or one already under way.
    auto connection = std::make_shared<QMetaObject::Connection>();
    *connection = connect(this, &Catalog::hostRefreshed, context, [this, host, connection, done](const QString &refreshed) {
        if (refreshed != host)
            return;
        disconnect(*connection);
        const HostState *s = this->host(host);
        done(s && s->reachable);
    });
    if (!isRefreshing(host))
        fetch(*it, ProbeTimeout);
}

void Catalog::fetch(HostState &state, std::optional<std::chrono::milliseconds> timeout)
{
    const QString name = state.host;
    if (auto running = m_inFlight.value(name)) {
        // A newer answer is wanted: one that started before the change may show the old state.
        running->abort();
        running->deleteLater();
    }
    UpstreamExchange::Request request;
    request.base = state.url;
    request.target = "/models";
    request.headers = {{"Accept", "application/json"}};
    if (!state.apiKey.isEmpty())   // llama-server --api-key guards /models as well
        request.headers.append({"Authorization", "Bearer " + state.apiKey.toUtf8()});
    request.connectTimeout = timeout ? std::min(*timeout, m_connectTimeout) : m_connectTimeout;
    request.inactivityTimeout = request.connectTimeout;
    auto *exchange = new UpstreamExchange(m_pool, request, this);
    m_inFlight.insert(name, exchange);
    auto body = std::make_shared<QByteArray>();
    const auto asked = m_clock->steadyNow();
    connect(exchange, &UpstreamExchange::bodyData, this, [body](const QByteArray &d) { body->append(d); });
    auto done = [this, name, exchange, body, asked](const QString &error) {
        if (m_inFlight.value(name) == exchange)
            m_inFlight.remove(name);
        exchange->deleteLater();
        auto it = m_hosts.find(name);
        if (it == m_hosts.end())
            return;
        HostState &s = *it;
        s.lastPoll = m_clock->now();
        s.roundTripMs = std::chrono::duration_cast<std::chrono::milliseconds>(m_clock->steadyNow() - asked).count();
        const bool wasReachable = s.reachable;
        if (error.isEmpty()) {
            QString parseError;
            auto models = parseModelList(*body, &parseError);
            if (models) {
                s.models = *models;
                applyLoadingOverlay(s);
                dropEndedProgress(s);
                s.reachable = true;
                s.everFetched = true;
                s.lastError.clear();
            } else {
                s.reachable = false;
                s.lastError = parseError;
            }
        } else {
            s.reachable = false;
            s.lastError = error;
        }
        for (EngineModels &e : s.engines) {
            if (e.name != s.engine)
                continue;
            if (!e.explicitModels.isEmpty()) {
                // An engine that is not a router: its models are loaded exactly when it is up.
                const QList<ModelEntry> answered = s.reachable ? s.models : QList<ModelEntry>();
                QList<ModelEntry> listed;
                for (const QString &key : std::as_const(e.explicitModels)) {
                    ModelEntry m;
                    m.key = key;
                    m.status = s.reachable ? u"loaded"_s : u"unloaded"_s;
                    m.raw = QJsonObject{{"id"_L1, key}, {"object"_L1, "model"_L1}, {"owned_by"_L1, "llamacpp"_L1},
                                        {"status"_L1, QJsonObject{{"value"_L1, m.status}}}};
                    // Its context size, from the server's own entry (a single-model server names
                    // its one model as it likes): kept for the window and the clients.
                    const QJsonObject meta = ownEntry(answered, key, e.explicitModels.size()).value("meta"_L1).toObject();
                    if (meta.contains("n_ctx"_L1))
                        m.raw.insert("meta"_L1, meta);
                    listed.append(m);
                }
                // Remembered like a router's list, so the size is known while another engine runs.
                if (carryContextSizes(e.lastSeen, &listed)) {
                    e.lastSeen = listed;
                    remember();
                }
                s.models = listed;
                s.everFetched = true;
                applyLoadingOverlay(s);
            } else if (s.reachable) {
                QStringList before, after;
                for (const ModelEntry &m : std::as_const(e.lastSeen))
                    before.append(m.key);
                for (const ModelEntry &m : std::as_const(s.models))
                    after.append(m.key);
                QList<ModelEntry> seen = s.models;
                const bool learned = carryContextSizes(e.lastSeen, &seen);
                e.lastSeen = seen;
                if (before != after || learned)
                    remember();   // only when the set of models or a context changed, not on every poll
            }
        }
        if (wasReachable != s.reachable || error.isEmpty())
            qCDebug(lcCatalog) << "host" << name << (s.reachable ? "reachable" : "unreachable") << s.lastError;
        invalidate();
        emit hostRefreshed(name);
    };
    connect(exchange, &UpstreamExchange::finished, this, [exchange, done] {
        if (exchange->status() != 200)
            done(u"its model list (GET /models) answered with an error"_s);
        else
            done(QString());
    });
    connect(exchange, &UpstreamExchange::failed, this, [done](UpstreamExchange::Failure, const QString &message) {
        done(message.isEmpty() ? u"unreachable"_s : message);
    });
    exchange->start();
}

const Catalog::HostState *Catalog::host(const QString &name) const
{
    auto it = m_hosts.constFind(name);
    return it == m_hosts.constEnd() ? nullptr : &*it;
}

std::optional<ModelEntry> Catalog::model(const QString &host, const QString &key) const
{
    const HostState *s = this->host(host);
    if (!s)
        return std::nullopt;
    for (const ModelEntry &m : s->models) {
        if (m.key == key)
            return m;
    }
    return std::nullopt;
}

void Catalog::markLoading(const QString &host, const QString &key)
{
    m_loading.insert(host + u'\n' + key, m_clock->steadyNow());
    if (auto it = m_hosts.find(host); it != m_hosts.end())
        it->loadProgress.remove(key);   // a new load: what an earlier one reached says nothing
    setModelStatus(host, key, u"loading"_s);
    invalidate();   // also when the model's engine is not the running one
}

void Catalog::markUnloading(const QString &host, const QString &key)
{
    m_loading.remove(host + u'\n' + key);
}

void Catalog::applyLoadProgress(const QString &host, const ProgressEvent &event)
{
    auto it = m_hosts.find(host);
    if (it == m_hosts.end())
        return;
    if (event.kind == ProgressEvent::Kind::Ended && !it->loadProgress.contains(event.model))
        return;
    LoadProgress &known = it->loadProgress[event.model];
    const bool visible = event.applyTo(&known);
    if (known.isEmpty())
        it->loadProgress.remove(event.model);
    if (visible)
        invalidate();
}

// A read of the list that shows a model no longer loading (or downloading) ends its progress,
// also when its last event was missed (the feed was down).
void Catalog::dropEndedProgress(HostState &state)
{
    for (auto it = state.loadProgress.begin(); it != state.loadProgress.end();) {
        const auto model = std::find_if(state.models.cbegin(), state.models.cend(),
                                        [&it](const ModelEntry &m) { return m.key == it.key(); });
        if (model == state.models.cend() || (model->status != "loading"_L1 && model->status != "downloading"_L1))
            it = state.loadProgress.erase(it);
        else
            ++it;
    }
}

void Catalog::applyLoadingOverlay(HostState &state)
{
    const auto now = m_clock->steadyNow();
    for (ModelEntry &m : state.models) {
        const QString id = state.host + u'\n' + m.key;
        auto it = m_loading.find(id);
        if (it == m_loading.end())
            continue;
        const bool failed = m.raw.value("status"_L1).toObject().value("failed"_L1).toBool();
        if (m.status == "unloaded"_L1 && !failed && now - *it < LoadGrace) {
            m.status = u"loading"_s;
            QJsonObject st = m.raw.value("status"_L1).toObject();
            st.insert("value"_L1, m.status);
            m.raw.insert("status"_L1, st);
        } else if (m.status != "loading"_L1) {
            m_loading.erase(it);
        }
    }
}

QString Catalog::engineFor(const QString &host, const QString &key) const
{
    const HostState *s = this->host(host);
    if (!s)
        return {};
    for (const ModelEntry &m : s->models) {
        if (m.key == key)
            return s->engine;
    }
    for (const EngineModels &e : s->engines) {
        if (e.explicitModels.contains(key))
            return e.name;
        for (const ModelEntry &m : e.lastSeen) {
            if (m.key == key)
                return e.name;
        }
    }
    return {};
}

bool Catalog::isExplicitModel(const QString &host, const QString &engine, const QString &key) const
{
    const HostState *s = this->host(host);
    if (!s)
        return false;
    for (const EngineModels &e : s->engines) {
        if (e.name == engine)
            return e.explicitModels.contains(key);
    }
    return false;
}

void Catalog::setCurrentEngine(const QString &host, const QString &engine)
{
    auto it = m_hosts.find(host);
    if (it == m_hosts.end())
        return;
    for (const EngineModels &e : std::as_const(it->engines)) {
        if (e.name != engine)
            continue;
        if (it->engine != engine) {
            it->engine = engine;
            it->url = e.url;
            it->models.clear();
            it->everFetched = false;
            it->reachable = false;
            invalidate();
            emit engineChanged(host);
        }
        fetch(*it);
        return;
    }
}

void Catalog::setModelStatus(const QString &host, const QString &key, const QString &status)
{
    auto it = m_hosts.find(host);
    if (it == m_hosts.end())
        return;
    for (ModelEntry &m : it->models) {
        if (m.key != key)
            continue;
        if (m.status == status)
            return;
        m.status = status;
        QJsonObject st = m.raw.value("status"_L1).toObject();
        st.insert("value"_L1, status);
        st.remove("failed"_L1);
        st.remove("exit_code"_L1);
        m.raw.insert("status"_L1, st);
        invalidate();
        return;
    }
}

QStringList Catalog::aliases() const
{
    // Everything the relay can serve, running or not, as /models lists it.
    QStringList out;
    for (const ListedModel &listed : listedModels()) {
        const QString alias = aliasFor(listed.host, listed.entry.key);
        if (!out.contains(alias))
            out.append(alias);
    }
    for (const ReplicaSet &set : m_replicaSets)
        out.append(set.alias);
    return out;
}

void Catalog::invalidate()
{
    m_cachedJson.clear();
    emit changed();
}

void Catalog::setPowerStatus(const QString &host, const QString &status)
{
    const auto it = m_hosts.find(host);
    if (it == m_hosts.end() || it->powerStatus == status)
        return;
    it->powerStatus = status;
    invalidate();
}

QList<Catalog::ListedModel> Catalog::listedModels() const
{
    QList<ListedModel> out;
    for (const QString &name : m_order) {
        const HostState &s = *m_hosts.constFind(name);
        const qsizetype first = out.size();
        const auto powerOverride = qScopeGuard([&out, &s, first] {
            if (s.powerStatus.isEmpty())
                return;
            for (qsizetype i = first; i < out.size(); ++i) {
                ModelEntry &m = out[i].entry;
                m.status = s.powerStatus;
                QJsonObject st = m.raw.value("status"_L1).toObject();
                st.insert("value"_L1, m.status);
                m.raw.insert("status"_L1, st);
                m.raw.remove("meta"_L1);   // describes a model loaded now
            }
        });
        QSet<QString> listed;
        for (ModelEntry m : s.models) {
            qint64 context = m.contextSize().value_or(0);
            for (const EngineModels &e : s.engines) {
                if (context == 0 && e.name == s.engine)
                    context = rememberedContextSize(e, m.key);
            }
            // A host found dead keeps its last list until it answers again, but nothing on it
            // is loaded: a replicated alias then shows (and /models names) a live replica.
            if (!s.reachable && m.status == "loaded"_L1) {
                m.status = u"unloaded"_s;
                QJsonObject st = m.raw.value("status"_L1).toObject();
                st.insert("value"_L1, m.status);
                m.raw.insert("status"_L1, st);
                m.raw.remove("meta"_L1);   // describes a model loaded now
            }
            out.append({name, s.engine, m, context});
            listed.insert(m.key);
        }
        // The other engines' models: unloaded, since their engine is not running (a load of one
        // switches the host to its engine). The running engine's own remembered list stands in
        // for its live one until that is read, so a model never drops out of the list mid-switch.
        for (const EngineModels &e : s.engines) {
            QList<ModelEntry> models = e.lastSeen;
            for (const QString &key : e.explicitModels)
                models.append(ModelEntry{key, u"unloaded"_s, QJsonObject{{"id"_L1, key}, {"object"_L1, "model"_L1}, {"owned_by"_L1, "llamacpp"_L1}}});
            for (ModelEntry &m : models) {
                if (listed.contains(m.key))
                    continue;
                listed.insert(m.key);
                m.status = m_loading.contains(name + u'\n' + m.key) ? u"loading"_s : u"unloaded"_s;
                QJsonObject st = m.raw.value("status"_L1).toObject();
                st.insert("value"_L1, m.status);
                st.remove("failed"_L1);
                st.remove("exit_code"_L1);
                m.raw.insert("status"_L1, st);
                qint64 context = m.contextSize().value_or(0);
                if (context == 0 && e.explicitModels.size() == 1 && e.explicitModels.first() == m.key)
                    context = contextSizeInArgs(e.argv).value_or(0);   // never ran: its command line says
                m.raw.remove("meta"_L1);   // describes a model loaded now
                out.append({name, e.name, m, context});
            }
        }
    }
    return out;
}

QByteArray Catalog::modelsJson() const
{
    if (!m_cachedJson.isEmpty())
        return m_cachedJson;
    QJsonArray data;
    const QList<ListedModel> listed = listedModels();
    for (const ListedModel &l : listed) {
        QJsonObject o = l.entry.raw;
        o.insert("id"_L1, aliasFor(l.host, l.entry.key));
        QJsonObject proxy{{"host"_L1, l.host}, {"key"_L1, l.entry.key}, {"engine"_L1, l.engine}};
        if (l.contextSize > 0)
            proxy.insert("n_ctx"_L1, l.contextSize);
        o.insert("proxy"_L1, proxy);
        data.append(o);
    }
    for (const ReplicaSet &set : m_replicaSets) {
        QList<ReplicaSet::Seen> seen;
        for (const ReplicaSet::Target &t : set.targets) {
            ReplicaSet::Seen s;
            for (const ListedModel &l : listed) {
                if (l.host == t.host && l.entry.key == t.key) {
                    s = {l.engine, l.entry};
                    break;
                }
            }
            seen.append(s);
        }
        data.append(set.listing(seen));
    }
    m_cachedJson = QJsonDocument(QJsonObject{{"data"_L1, data}, {"object"_L1, "list"_L1}}).toJson(QJsonDocument::Compact);
    return m_cachedJson;
}

} // namespace switchyard
