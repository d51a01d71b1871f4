#include "app/catalogeventrecorder.h"

#include "app/relayservice.h"
#include "catalog/catalog.h"
#include "hosts/hostcontroller.h"
#include "common/clock.h"
#include "store/historystore.h"

namespace switchyard {

using namespace Qt::StringLiterals;

CatalogEventRecorder::CatalogEventRecorder(HistoryStore *store, const Clock &clock, QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_clock(clock)
{
}

void CatalogEventRecorder::setService(RelayService *service)
{
    if (m_catalog)
        disconnect(m_catalog, nullptr, this, nullptr);
    m_service = service;
    Catalog *catalog = service ? service->catalog() : nullptr;
    m_catalog = catalog;
    if (catalog)
        connect(catalog, &Catalog::changed, this, &CatalogEventRecorder::observe);
    observe();
}

void CatalogEventRecorder::observe()
{
    if (!m_catalog || !m_store)
        return;
    const QDateTime now = m_clock.now();
    for (const QString &host : m_catalog->hostNames()) {
        const Catalog::HostState *state = m_catalog->host(host);
        if (!state || !state->lastPoll.isValid())
            continue;   // not polled yet: nothing observed
        const bool known = m_seen.contains(host);
        Seen &seen = m_seen[host];
        // A controller that is switching, draining or lending the host stops its engine on
        // purpose, and records that itself.
        const HostController *controller = m_service ? m_service->hostController(host) : nullptr;
        const bool onPurpose = controller
            && (controller->state() == HostStateMachine::State::Switching
                || controller->state() == HostStateMachine::State::Draining
                || controller->state() == HostStateMachine::State::Leased);
        if (known && state->engine != seen.engine)
            seen.engineSetAfter = state->lastPoll;
        seen.engine = state->engine;
        if (onPurpose && !state->reachable)
            continue;
        // Not polled since the catalog turned to this engine (after a reload it starts at the
        // host's first one; the controller's probe then names the one running).
        if (!state->reachable && seen.engineSetAfter.isValid() && state->lastPoll <= seen.engineSetAfter)
            continue;
        if (!known || seen.reachable != state->reachable) {
            HistoryEvent e;
            e.at = now;
            e.host = host;
            e.engine = state->engine;
            if (state->reachable) {
                e.kind = HistoryEvent::Kind::HostUp;
                m_store->recordEvent(e);
            } else if (known) {
                // A host first seen down is not an event: it was never seen up.
                e.kind = HistoryEvent::Kind::HostDown;
                e.detail = state->lastError;
                m_store->recordEvent(e);
            }
            seen.reachable = state->reachable;
        }
        if (!state->reachable)
            continue;
        for (const ModelEntry &m : state->models) {
            const QString before = seen.status.value(m.key);
            const bool first = !seen.status.contains(m.key);
            seen.status.insert(m.key, m.status);
            if (m.status == "loading"_L1) {
                if (!seen.loadingSince.contains(m.key))
                    seen.loadingSince.insert(m.key, now);
                continue;
            }
            // Models already loaded when first seen: when they loaded is not known.
            if (first || before == m.status)
                continue;
            HistoryEvent e;
            e.at = now;
            e.host = host;
            e.engine = state->engine;
            e.model = Catalog::aliasFor(host, m.key);
            const QDateTime since = seen.loadingSince.take(m.key);
            if (m.status == "loaded"_L1) {
                e.kind = HistoryEvent::Kind::Load;
                if (since.isValid())
                    e.duration = std::chrono::milliseconds(since.msecsTo(now));
                m_store->recordEvent(e);
            } else if (m.status == "unloaded"_L1 && before == "loading"_L1) {
                e.kind = HistoryEvent::Kind::Load;
                e.detail = u"load failed"_s;   // history text, like the journal: not translated
                m_store->recordEvent(e);
            } else if (m.status == "unloaded"_L1 && before == "loaded"_L1) {
                e.kind = HistoryEvent::Kind::Unload;
                m_store->recordEvent(e);
            }
        }
    }
}

} // namespace switchyard
