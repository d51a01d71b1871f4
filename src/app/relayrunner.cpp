#include "app/relayrunner.h"

#include "app/relayservice.h"
#include "http/httpserver.h"
#include "relay/relay.h"
#include "store/historyevent.h"
#include "store/historystore.h"

#include <chrono>

namespace switchyard {

using namespace std::chrono_literals;

RelayRunner::RelayRunner(ConsoleJournal *journal, HistoryStore *history, const Clock *clock, QObject *parent)
    : QObject(parent)
    , m_journal(journal)
    , m_history(history)
    , m_clock(clock)
{
    qRegisterMetaType<switchyard::RelayService *>();   // for queued connections and QSignalSpy
    m_reaper.setInterval(500ms);
    connect(&m_reaper, &QTimer::timeout, this, &RelayRunner::reapRetired);
}

RelayRunner::~RelayRunner()
{
    // The process ends cleanly (a crash never gets here): the history knows nothing was
    // observed from now until the next start.
    if (m_service)
        recordRun(HistoryEvent::Kind::RelayStopped);
}

void RelayRunner::recordRun(HistoryEvent::Kind kind)
{
    if (!m_history)
        return;
    HistoryEvent e;
    e.kind = kind;   // no time: the store stamps it with its clock
    m_history->recordEvent(e);
}

RelayService *RelayRunner::makeService(const Config &config)
{
    auto *service = new RelayService(config, m_drivers ? m_drivers(config) : RelayService::DriverFactory(),
                                     m_clock, this);
    if (!m_engineMemoryFile.isEmpty())
        service->rememberEnginesIn(m_engineMemoryFile);
    if (m_journal)
        service->setJournal(m_journal);
    if (m_history)
        service->setHistory(m_history);
    connect(service->relay(), &Relay::requestStarted, this, &RelayRunner::requestStarted);
    connect(service->relay(), &Relay::requestFinished, this, &RelayRunner::requestFinished);
    return service;
}

bool RelayRunner::start(const Config &config, QString *error)
{
    Q_ASSERT(!m_service);
    RelayService *service = makeService(config);
    if (!service->start(error)) {
        delete service;
        return false;
    }
    m_service = service;
    recordRun(HistoryEvent::Kind::RelayStarted);
    emit serviceChanged(m_service);
    return true;
}

bool RelayRunner::replace(const Config &config, QString *error)
{
    if (!m_service)
        return start(config, error);
    RelayService *old = m_service;
    const QHostAddress oldAddress = old->server()->address();
    const quint16 oldPort = old->server()->port();
    old->stopAccepting();   // frees the port; running responses go on
    RelayService *service = makeService(config);
    if (!service->start(error)) {
        delete service;
        if (!old->server()->listenOn(oldAddress, oldPort))
            *error += u'\n' + tr("the running relay could not listen again on %1:%2 either: %3")
                                  .arg(oldAddress.toString()).arg(oldPort).arg(old->server()->errorString());
        return false;
    }
    m_service = service;
    m_retiring.append(old);
    m_reaper.start();
    emit serviceChanged(m_service);
    return true;
}

void RelayRunner::retire()
{
    if (!m_service)
        return;
    m_service->stopAccepting();
    m_retiring.append(m_service);
    m_service = nullptr;
    recordRun(HistoryEvent::Kind::RelayStopped);
    m_reaper.start();
    emit serviceChanged(nullptr);
}

void RelayRunner::stopAccepting()
{
    if (m_service)
        m_service->stopAccepting();
}

void RelayRunner::shutdown(std::chrono::milliseconds grace)
{
    if (m_stopping)
        return;
    QList<RelayService *> services;
    if (m_service)
        services.append(m_service);
    for (const QPointer<RelayService> &s : std::as_const(m_retiring)) {
        if (s)
            services.append(s);
    }
    if (services.isEmpty()) {
        QMetaObject::invokeMethod(this, &RelayRunner::stopped, Qt::QueuedConnection);
        return;
    }
    m_reaper.stop();   // nothing retires now: everything stops
    m_stopping = int(services.size());
    for (RelayService *s : std::as_const(services)) {
        connect(s, &RelayService::stopped, this, [this] {
            if (--m_stopping == 0)
                emit stopped();
        }, Qt::SingleShotConnection);
        s->shutdown(grace);
    }
}

int RelayRunner::requestsInFlight() const
{
    int n = m_service ? m_service->relay()->requestsInFlight() : 0;
    for (const QPointer<RelayService> &s : m_retiring) {
        if (s)
            n += s->relay()->requestsInFlight();
    }
    return n;
}

void RelayRunner::reapRetired()
{
    for (auto it = m_retiring.begin(); it != m_retiring.end();) {
        RelayService *s = *it;
        if (!s) {
            it = m_retiring.erase(it);
        } else if (s->relay()->requestsInFlight() == 0
                   && s->server()->openConnections() <= s->relay()->eventSubscribers()) {
            // Only /models/sse subscribers left: they reconnect, and reach the new service.
            s->deleteLater();
            it = m_retiring.erase(it);
        } else {
            ++it;
        }
    }
    if (m_retiring.isEmpty())
        m_reaper.stop();
}

} // namespace switchyard
