#include "models/hosttablemodel.h"

#include "app/relayservice.h"
#include "app/remoterelayfeed.h"
#include "catalog/modelevents.h"
#include "engines/boxprotocol.h"
#include "engines/gpuboard.h"
#include "hosts/hostcontroller.h"
#include "hosts/promptcachekeeper.h"
#include "models/controlleractivity.h"
#include "models/inflightcounter.h"
#include "shared/failurewords.h"
#include "shared/recordwords.h"
#include "shared/uiformat.h"

#include <QLocale>


namespace switchyard {

using namespace Qt::StringLiterals;

namespace {

// On its way to serving: loading, or being downloaded by its router (POST /models on llama.cpp).
bool isLoading(const ModelEntry &m)
{
    return m.status == "loading"_L1 || m.status == "downloading"_L1;
}

} // namespace

HostTableModel::HostTableModel(QObject *parent)
    : QAbstractListModel(parent)
{
}

void HostTableModel::detach()
{
    if (m_catalog)
        disconnect(m_catalog, nullptr, this, nullptr);
    if (m_service)
        disconnect(m_service->gpus(), nullptr, this, nullptr);
    if (m_remote)
        disconnect(m_remote, nullptr, this, nullptr);
    for (const QPointer<HostController> &c : std::as_const(m_controllers)) {
        if (c)
            disconnect(c, nullptr, this, nullptr);
        if (c && c->promptCacheKeeper())
            disconnect(c->promptCacheKeeper(), nullptr, this, nullptr);
    }
    m_controllers.clear();
    m_overlays.clear();   // the new service's controllers say again
    m_engineNotPolled.clear();
    m_remote = nullptr;
    m_service = nullptr;
    m_catalog = nullptr;
}

void HostTableModel::setRemote(RemoteRelayFeed *feed)
{
    detach();
    m_remote = feed;
    beginResetModel();
    m_rows.clear();
    endResetModel();
    if (feed)
        connect(feed, &RemoteRelayFeed::hostsChanged, this, &HostTableModel::syncFromRemote);
    syncFromRemote();
}

// Why a watched relay's host is down, in the user's language: its last failure's facts, worded
// as the relay's own window words them (ControllerActivity); a relay before the facts sent only
// its English, said through RecordWords.
QString HostTableModel::downReason(const RemoteRelayFeed::Host &host)
{
    return host.lastFailure ? FailureWords::engineFailure(*host.lastFailure) : RecordWords::say(host.state.lastError);
}

// What the watched relay's host controllers say, as the local ones would (syncFromController).
void HostTableModel::syncFromRemote()
{
    QList<Row> rows;
    const QList<RemoteRelayFeed::Host> hosts = m_remote ? m_remote->hosts() : QList<RemoteRelayFeed::Host>();
    for (const RemoteRelayFeed::Host &h : hosts)
        rows.append(Row{h.state, h.engines, h.driver, h.gpus, h.inFlight, h.live});
    for (const RemoteRelayFeed::Host &h : hosts) {
        Overlay &o = m_overlays[h.state.host];
        const bool changing = h.controllerState == "draining"_L1 || h.controllerState == "switching"_L1;
        if (changing && !o.since.isValid()) {
            o.since = QDateTime::currentDateTime();
            o.from = h.state.engine;
        }
        if (!changing) {
            o.from.clear();
            o.since = QDateTime();
        }
        o.to = changing ? h.targetEngine : QString();
        const bool leased = h.controllerState == "leased"_L1;
        o.leaseOwner = leased ? h.leaseOwner : QString();
        o.leaseUntil = leased ? h.leaseUntil : QDateTime();
        if (h.controllerState == "draining"_L1)
            o.activity = HostActivity::Draining;
        else if (h.controllerState == "switching"_L1)
            o.activity = HostActivity::Switching;
        else if (h.controllerState == "down"_L1)
            o.activity = HostActivity::Down;
        else if (h.controllerState == "unknown"_L1 && h.state.engine.isEmpty() && h.engines.size() > 0)
            o.activity = HostActivity::Idle;
        else
            o.activity = std::nullopt;
        o.agentProtocol = h.agentProtocol;
        o.relayProtocol = h.relayProtocol;
        o.next = h.nextEngine;
        o.nextWaiting = h.nextWaiting;
        o.nextDue = h.nextDue;
        o.nextLatest = h.nextLatest;
        o.detail = h.controllerState == "down"_L1 ? downReason(h)
                   : o.activity == HostActivity::Idle ? tr("no engine running; the next request starts one")
                                                      : QString();
    }
    replaceRows(rows);
}

void HostTableModel::setService(RelayService *service)
{
    detach();
    m_service = service;
    m_catalog = service ? service->catalog() : nullptr;
    beginResetModel();
    m_rows.clear();
    endResetModel();
    if (m_catalog) {
        connect(m_catalog, &Catalog::changed, this, &HostTableModel::syncFromCatalog);
        // The catalog's read of the host answered or failed: its state is about the new engine
        // now (emitted after the changed() that brought the answer).
        connect(m_catalog, &Catalog::hostRefreshed, this, [this](const QString &host) {
            if (!m_engineNotPolled.remove(host))
                return;
            const QList<HostActivity> before = activities();
            if (const int row = rowOf(host); row >= 0)
                emitRowChanged(row);
            if (activities() != before)
                emit activitiesChanged();
        });
    }
    syncFromCatalog();
    if (service) {
        connect(service->gpus(), &GpuBoard::changed, this, [this](const QString &host) {
            if (const int row = rowOf(host); row >= 0)
                emit dataChanged(index(row), index(row), {GpusRole});
        });
        for (HostController *c : service->hostControllers()) {
            m_controllers.append(c);
            connect(c, &HostController::stateChanged, this, [this, c] { syncFromController(c); });
            syncFromController(c);
            followPromptCaches(c);
        }
    }
}

int HostTableModel::inFlightTotal() const
{
    if (!m_remote)
        return m_inFlight ? m_inFlight->total() : 0;
    int total = 0;
    for (const Row &row : m_rows)
        total += row.inFlight;
    return total;
}

HostController *HostTableModel::controller(const QString &host) const
{
    for (const QPointer<HostController> &c : m_controllers) {
        if (c && c->host() == host)
            return c;
    }
    return nullptr;
}

void HostTableModel::syncFromController(HostController *c)
{
    const QString host = c->host();
    Overlay &o = m_overlays[host];
    // A box that woke with no engine running starts one: that is still the wake (no engine to
    // switch from), timed from the wake-up packet, until the engine is up.
    const bool wakeStart = o.activity == HostActivity::Waking && c->state() == HostStateMachine::State::Switching
        && !c->targetEngine().isEmpty();
    const bool changing = !wakeStart
        && (c->state() == HostStateMachine::State::Draining || c->state() == HostStateMachine::State::Switching);
    // A drain and the switch after it are one change: from the engine that ran, to the target,
    // timed from the start of the drain.
    const bool wasChanging = o.activity == HostActivity::Draining || o.activity == HostActivity::Switching;
    if (wakeStart) {
        o.from.clear();
        o.to = c->targetEngine();
    } else if (changing && (!wasChanging || o.to != c->targetEngine())) {
        if (!wasChanging) {
            o.since = QDateTime::currentDateTime();
            const int row = rowOf(host);
            o.from = c->currentEngine().isEmpty() && row >= 0 ? m_rows.at(row).state.engine : c->currentEngine();
        }
        o.to = c->targetEngine();
    } else if (!changing) {
        o.from.clear();
        o.to.clear();
        // A wake is timed too: the card shows how long the box has been waking.
        const bool waking = c->state() == HostStateMachine::State::Waking;
        if (!waking || o.activity != HostActivity::Waking || !o.since.isValid())
            o.since = waking ? QDateTime::currentDateTime() : QDateTime();
    }
    const HostController::NextSwitch next = c->state() == HostStateMachine::State::Serving ? c->nextSwitch()
                                                                                          : HostController::NextSwitch();
    o.next = next.engine;
    o.nextWaiting = next.waiting;
    o.nextDue = next.in ? QDateTime::currentDateTime().addMSecs(next.in->count()) : QDateTime();
    const std::chrono::milliseconds holdLeft = next.engine.isEmpty() ? std::chrono::milliseconds(-1) : c->waitFor().holdLeft;
    o.nextLatest = holdLeft.count() >= 0 ? QDateTime::currentDateTime().addMSecs(holdLeft.count()) : QDateTime();
    o.agentProtocol = c->agentProtocol();
    o.relayProtocol = BoxProtocol::Version;
    const ControllerActivity::Reading reading = wakeStart
        ? ControllerActivity::Reading{HostActivity::Waking, tr("engine %1 starting").arg(o.to)}
        : ControllerActivity::read(c, o.next, o.nextWaiting);
    setActivity(host, reading.activity, reading.detail);
    setLease(host, c->state() == HostStateMachine::State::Leased ? c->leaseOwner() : QString(),
             c->state() == HostStateMachine::State::Leased ? c->leaseUntil() : QDateTime());
    // A shared box's caches are its agent's, told with the box's state.
    if (const int row = rowOf(host); row >= 0 && c->sharedBox())
        emit dataChanged(index(row), index(row), {Qt::ToolTipRole, PromptCachesRole});
}

void HostTableModel::setInFlightCounter(InFlightCounter *counter)
{
    if (m_inFlight)
        disconnect(m_inFlight, nullptr, this, nullptr);
    m_inFlight = counter;
    if (!counter)
        return;
    connect(counter, &InFlightCounter::changed, this, [this] {
        if (!m_rows.isEmpty())
            emit dataChanged(index(0), index(int(m_rows.size()) - 1), {InFlightRole});
    });
}

void HostTableModel::syncFromCatalog()
{
    QList<Row> rows;
    if (m_catalog && m_service) {
        for (const QString &name : m_catalog->hostNames()) {
            Row row;
            if (const Catalog::HostState *state = m_catalog->host(name))
                row.state = *state;
            if (const HostConfig *config = m_service->config().host(name)) {
                row.driver = config->driver;
                for (const EngineConfig &e : config->engines)
                    row.engines.append(e.name);
            }
            rows.append(row);
        }
    }
    replaceRows(rows);
}

void HostTableModel::replaceRows(const QList<Row> &rows)
{
    // When each model was first seen loading, for "loading M · 12 s".
    QHash<QString, QDateTime> loading;
    for (const Row &row : std::as_const(rows)) {
        for (const ModelEntry &m : row.state.models) {
            if (!isLoading(m))
                continue;
            const QString key = row.state.host + u'\n' + m.key;
            loading.insert(key, m_loadingSince.value(key, QDateTime::currentDateTime()));
        }
    }
    m_loadingSince = loading;
    // The catalog turns to a new engine before it has read it, keeping the old engine's poll
    // time: until its first read that is no "down" (see activityOf).
    if (m_catalog) {
        for (const Row &row : std::as_const(rows)) {
            const int old = rowOf(row.state.host);
            if (old >= 0 && m_rows.at(old).state.engine != row.state.engine && m_rows.at(old).state.lastPoll.isValid())
                m_engineNotPolled.insert(row.state.host);
        }
    }
    const QList<HostActivity> before = activities();
    bool sameHosts = rows.size() == m_rows.size();
    for (qsizetype i = 0; sameHosts && i < rows.size(); ++i)
        sameHosts = rows.at(i).state.host == m_rows.at(i).state.host;
    if (!sameHosts) {
        beginResetModel();
        m_rows = rows;
        endResetModel();
    } else {
        m_rows = rows;
        if (!m_rows.isEmpty())
            emit dataChanged(index(0), index(int(m_rows.size()) - 1));
    }
    if (activities() != before)
        emit activitiesChanged();
}

void HostTableModel::setActivity(const QString &host, std::optional<HostActivity> activity, const QString &detail)
{
    Overlay &o = m_overlays[host];
    o.activity = activity;
    o.detail = detail;
    const int row = rowOf(host);
    if (row >= 0)
        emitRowChanged(row);
    emit activitiesChanged();
}

void HostTableModel::setLease(const QString &host, const QString &owner, const QDateTime &until)
{
    Overlay &o = m_overlays[host];
    o.leaseOwner = owner;
    o.leaseUntil = until;
    const int row = rowOf(host);
    if (row >= 0)
        emitRowChanged(row);
}

void HostTableModel::emitRowChanged(int row)
{
    emit dataChanged(index(row), index(row));
}

QStringList HostTableModel::hostNames() const
{
    QStringList names;
    for (const Row &r : m_rows)
        names.append(r.state.host);
    return names;
}

int HostTableModel::rowOf(const QString &host) const
{
    for (qsizetype i = 0; i < m_rows.size(); ++i) {
        if (m_rows.at(i).state.host == host)
            return int(i);
    }
    return -1;
}

HostActivity HostTableModel::activityOf(const Row &row) const
{
    const Overlay o = m_overlays.value(row.state.host);
    if (o.activity)
        return *o.activity;
    if (!o.leaseOwner.isEmpty())
        return HostActivity::Leased;
    if (row.state.reachable)
        return HostActivity::Up;
    // Its controller has just started (or found) this engine and serves it; the catalog's
    // first read of it will say whether it answers. Until then it is not down.
    if (m_engineNotPolled.contains(row.state.host))
        return HostActivity::Up;
    if (row.state.lastPoll.isValid())
        return HostActivity::Down;
    return HostActivity::Unknown;
}

HostActivity HostTableModel::activity(int row) const
{
    return row >= 0 && row < m_rows.size() ? activityOf(m_rows.at(row)) : HostActivity::Unknown;
}

QList<HostActivity> HostTableModel::activities() const
{
    QList<HostActivity> out;
    for (const Row &r : m_rows)
        out.append(activityOf(r));
    return out;
}

int HostTableModel::hostsUp() const
{
    int n = 0;
    for (const Row &r : m_rows) {
        switch (activityOf(r)) {
        case HostActivity::Up:
        case HostActivity::Idle:
        case HostActivity::Draining:
        case HostActivity::Switching:
            ++n;
            break;
        case HostActivity::Unknown:
        case HostActivity::Down:
        case HostActivity::Leased:
        case HostActivity::Waking:
        case HostActivity::Asleep:
            break;
        }
    }
    return n;
}

int HostTableModel::hostsLeased() const
{
    int n = 0;
    for (const Row &r : m_rows) {
        if (activityOf(r) == HostActivity::Leased)
            ++n;
    }
    return n;
}

QString HostTableModel::activityTitle(HostActivity activity)
{
    switch (activity) {
    case HostActivity::Unknown: return tr("waiting for first poll");
    case HostActivity::Up: return tr("up");
    case HostActivity::Down: return tr("down");
    case HostActivity::Switching: return tr("switching");
    case HostActivity::Draining: return tr("draining");
    case HostActivity::Leased: return tr("leased");
    case HostActivity::Idle: return tr("idle");
    case HostActivity::Waking: return tr("waking");
    case HostActivity::Asleep: return tr("asleep");
    }
    return {};
}

// Issue 31 item 1: a request held for another engine's work is told what it waits for and until
// when; the card says the same, from the host's bound (the keepalive comment's "at the latest").
QString HostTableModel::waitingText(const QString &engine, int waiting, const QDateTime &latest, const QDateTime &now)
{
    if (engine.isEmpty())
        return {};
    const QString what = tr("%n waiting for engine %1", nullptr, waiting).arg(engine);
    if (!latest.isValid())
        return what;
    const auto left = std::chrono::milliseconds(std::max<qint64>(0, now.msecsTo(latest)));
    return tr("%1 · switch at the latest %2 (in %3)").arg(what, UiFormat::timeOfDay(latest, now), UiFormat::span(left));
}

// Issue 33 item 5: a relay and its box's agent one protocol version apart keep serving, and the
// window says how (docs/HOSTS.md, "Versions").
QString HostTableModel::protocolNotice(int agentProtocol, int relayProtocol)
{
    if (agentProtocol <= 0 || relayProtocol <= 0 || agentProtocol == relayProtocol)
        return {};
    if (agentProtocol < relayProtocol)
        return tr("agent speaks protocol %1; this relay %2: switching without arbitration, update the agent")
            .arg(agentProtocol)
            .arg(relayProtocol);
    return tr("agent speaks protocol %1; this relay %2: update this relay").arg(agentProtocol).arg(relayProtocol);
}

// ---- prompt caches (issue 31, item 3) ----------------------------------------------------------

namespace {

QString cacheSize(qint64 bytes)
{
    const double mb = double(bytes) / (1024.0 * 1024.0);
    if (mb < 1024.0)
        return HostTableModel::tr("%1 MB").arg(qRound64(mb));
    const double gb = mb / 1024.0;
    return HostTableModel::tr("%1 GB").arg(gb < 100.0 ? QLocale().toString(gb, 'g', 3) : QLocale().toString(gb, 'f', 0));
}

} // namespace

QString HostTableModel::promptCacheText(int saved, qint64 bytes, qint64 maxBytes)
{
    return tr("prompt caches: %n saved, %1 of %2", nullptr, saved).arg(cacheSize(bytes), cacheSize(maxBytes));
}

// What the host's prompt-cache keeper holds, from the keeper itself (it reads the store's index;
// the window never looks at the box's folder). A watched relay's hosts say nothing here yet.
void HostTableModel::followPromptCaches(HostController *controller)
{
    const PromptCacheKeeper *keeper = controller->promptCacheKeeper();
    if (!keeper)
        return;
    connect(keeper, &PromptCacheKeeper::savedChanged, this, [this, host = controller->host()] {
        if (const int row = rowOf(host); row >= 0)
            emit dataChanged(index(row), index(row), {Qt::ToolTipRole, PromptCachesRole});
    });
}

QString HostTableModel::promptCacheLine(const QString &host) const
{
    const HostController *c = m_remote ? nullptr : controller(host);
    const std::optional<PromptCacheUsage> usage = c ? c->promptCacheUsage() : std::nullopt;
    if (!usage)
        return {};
    return promptCacheText(usage->saved, usage->bytes, usage->maxBytes);
}

QString HostTableModel::activityText(const Row &row) const
{
    const HostActivity a = activityOf(row);
    const Overlay o = m_overlays.value(row.state.host);
    QString text = activityTitle(a);
    if (a == HostActivity::Down && !row.state.lastError.isEmpty())
        text = tr("down: %1").arg(RecordWords::say(row.state.lastError));
    else if (a == HostActivity::Leased && !o.leaseOwner.isEmpty())
        text = tr("leased by %1").arg(o.leaseOwner);
    else if ((a == HostActivity::Draining || a == HostActivity::Switching) && !o.to.isEmpty())
        text += u' ' + (o.from.isEmpty() ? tr("→ %1").arg(o.to) : tr("%1 → %2").arg(o.from, o.to));
    if (!o.detail.isEmpty())
        text += u" ("_s + o.detail + u')';
    return text;
}

int HostTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

QVariant HostTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row &row = m_rows.at(index.row());
    const Catalog::HostState &s = row.state;
    switch (role) {
    case Qt::DisplayRole:
    case NameRole:
        return s.host;
    case Qt::ToolTipRole: {
        QString tip = u"<b>%1</b> — %2<br>%3"_s.arg(s.host.toHtmlEscaped(), activityText(row).toHtmlEscaped(),
                                                  s.url.toString().toHtmlEscaped());
        if (!s.lastError.isEmpty())
            tip += u"<br>"_s + tr("Last error: %1").arg(RecordWords::say(s.lastError).toHtmlEscaped());
        const Overlay o = m_overlays.value(s.host);
        if (const QString notice = protocolNotice(o.agentProtocol, o.relayProtocol); !notice.isEmpty())
            tip += u"<br>"_s + notice.toHtmlEscaped();
        if (const QString caches = promptCacheLine(s.host); !caches.isEmpty())
            tip += u"<br>"_s + caches.toHtmlEscaped();
        return tip;
    }
    case PromptCachesRole:
        return promptCacheLine(s.host);
    case ActivityRole:
        return int(activityOf(row));
    case ActivityTextRole:
        return activityText(row);
    case EngineRole:
        return s.engine;
    case EnginesRole:
        return row.engines;
    case UrlRole:
        return s.url.toString();
    case RoundTripMsRole:
        return s.roundTripMs;
    case LastPollRole:
        return s.lastPoll;
    case LastErrorRole:
        return RecordWords::say(s.lastError);   // the catalog's record, in the user's language
    case ModelsLoadedRole: {
        int n = 0;
        for (const ModelEntry &m : s.models) {
            if (m.status == "loaded"_L1)
                ++n;
        }
        return n;
    }
    case ModelsTotalRole:
        return int(s.models.size());
    case InFlightRole:
        if (m_remote)
            return row.inFlight;
        return m_inFlight ? m_inFlight->forHost(s.host) : 0;
    case LeaseOwnerRole:
        return m_overlays.value(s.host).leaseOwner;
    case LeaseUntilRole:
        return m_overlays.value(s.host).leaseUntil;
    case DriverRole:
        return row.driver;
    case SwitchFromRole:
        return m_overlays.value(s.host).from;
    case SwitchToRole:
        return m_overlays.value(s.host).to;
    case ActivitySinceRole:
        return m_overlays.value(s.host).since;
    case LoadingRole: {
        QStringList keys;
        for (const ModelEntry &m : s.models) {
            if (isLoading(m))
                keys.append(m.key);
        }
        return keys;
    }
    case LoadProgressRole: {
        // Only for a single load: with several, "loading a, b · 40 %" would not say whose.
        const auto loading = std::count_if(s.models.cbegin(), s.models.cend(),
                                           [](const ModelEntry &m) { return isLoading(m); });
        for (const ModelEntry &m : s.models) {
            if (loading == 1 && isLoading(m))
                return QVariant::fromValue(s.loadProgress.value(m.key));
        }
        return QVariant::fromValue(LoadProgress());
    }
    case LoadingSinceRole: {
        QDateTime first;
        for (const ModelEntry &m : s.models) {
            const QDateTime seen = m_loadingSince.value(s.host + u'\n' + m.key);
            if (seen.isValid() && (!first.isValid() || seen < first))
                first = seen;
        }
        return first;
    }
    case LiveRole:
        if (m_remote)
            return row.live;
        return s.reachable && m_service && m_service->modelEvents() && m_service->modelEvents()->isConnected(s.host);
    case NextEngineRole:
        return m_overlays.value(s.host).next;
    case NextWaitingRole:
        return m_overlays.value(s.host).nextWaiting;
    case NextDueRole:
        return m_overlays.value(s.host).nextDue;
    case NextLatestRole:
        return m_overlays.value(s.host).nextLatest;
    case ProtocolNoticeRole: {
        const Overlay o = m_overlays.value(s.host);
        return protocolNotice(o.agentProtocol, o.relayProtocol);
    }
    case GpusRole:
        return QVariant::fromValue(m_service ? m_service->gpus()->gpus(s.host) : row.gpus);
    default:
        return {};
    }
}

QHash<int, QByteArray> HostTableModel::roleNames() const
{
    QHash<int, QByteArray> names = QAbstractListModel::roleNames();
    names.insert(NameRole, "name");
    names.insert(ActivityRole, "activity");
    names.insert(ActivityTextRole, "activityText");
    names.insert(EngineRole, "engine");
    names.insert(EnginesRole, "engines");
    names.insert(UrlRole, "url");
    names.insert(RoundTripMsRole, "roundTripMs");
    names.insert(LastPollRole, "lastPoll");
    names.insert(LastErrorRole, "lastError");
    names.insert(ModelsLoadedRole, "modelsLoaded");
    names.insert(ModelsTotalRole, "modelsTotal");
    names.insert(InFlightRole, "inFlight");
    names.insert(LeaseOwnerRole, "leaseOwner");
    names.insert(LeaseUntilRole, "leaseUntil");
    names.insert(DriverRole, "driver");
    names.insert(SwitchFromRole, "switchFrom");
    names.insert(SwitchToRole, "switchTo");
    names.insert(ActivitySinceRole, "activitySince");
    names.insert(LoadingRole, "loading");
    names.insert(LoadingSinceRole, "loadingSince");
    names.insert(LiveRole, "live");
    names.insert(NextEngineRole, "nextEngine");
    names.insert(NextWaitingRole, "nextWaiting");
    names.insert(NextDueRole, "nextDue");
    names.insert(GpusRole, "gpus");
    names.insert(LoadProgressRole, "loadProgress");
    names.insert(ProtocolNoticeRole, "protocolNotice");
    names.insert(NextLatestRole, "nextLatest");
    names.insert(PromptCachesRole, "promptCaches");
    return names;
}

} // namespace switchyard
