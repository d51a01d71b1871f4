#pragma once

#include <QHash>
#include <QJsonArray>
#include <QObject>
#include <QPointer>
#include <QTimer>

#include <chrono>

#include "hosts/hostcontroller.h"
#include "journal/requestrecord.h"
#include "replies/clientreplies.h"
#include "http/requesthandler.h"

namespace switchyard {

class AdminEventStream;
class Catalog;
class Clock;
class GpuBoard;
class HistoryStore;
class ModelEvents;
class ResponseWriter;
struct IncomingRequest;

// /admin/...: host status and leases, and the request/event history. Only from loopback (the
// relay checks before handing a request here); the boxes are the LAN's shared GPUs.
//   GET    /admin/hosts
//   POST   /admin/hosts/{host}/lease   {"owner":"bench queue","ttl_s":3600}  answers once drained and stopped
//   DELETE /admin/hosts/{host}/lease
//   GET    /admin/models                   the models as /v1/models lists them (for the admin token)
//   POST   /admin/models/load, /admin/models/unload  {"model": alias}  as a client's /models/load
//                                          (the relay serves these two itself; see Relay)
//   GET    /admin/requests?since=&until=&host=&model=&status=&errors=1&limit=&after_id=
//          after_id=N: the requests stored after id N, oldest first (a cursor to page with)
//   GET    /admin/requests?state=active    what the relay serves now: waiting (why, how long), streaming
//   GET    /admin/events?since=&limit=&after_id=
//          both history answers and GET /admin/hosts carry "Switchyard-History: <id>", the
//          database's own id (ids and cursors are per database: a new id means paging from the
//          start again), and "Switchyard-Last-Request: N", "Switchyard-Last-Event: M", the
//          newest ids in it (a watcher whose cursors are there need not ask for a page)
// Times carry their zone offset ("2026-12-02T18:00:00.000+05:30").
//   GET    /admin/stream                   text/event-stream of what a watching window shows, as it
//          happens: "hello" (history id, newest ids), "hosts" and "models" (as the GETs answer),
//          "active" (one request in flight), "request" and "event" (one finished request or one
//          history event, with its id); a ": keepalive" comment every 15 s (docs/CONFIG.md)
//   GET    /admin/stats?since=             (default: the last 24 hours)
//   GET    /admin/usage?since=7d&by=key|client|alias|host   (default: 7d, key; see usagequery.h)
//   GET    /metrics                        Prometheus text format (docs/METRICS.md)
class ActiveRequests;
class RelayMetrics;

class AdminApi final : public QObject, public RequestHandler
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AdminApi)

public:
    // The clock the hosts' controllers read (requests' ages, the stats' default window); the
    // system's when none is given.
    explicit AdminApi(const Clock *clock = nullptr, QObject *parent = nullptr);
    ~AdminApi() override;

    // Host changes within this long go out as one "hosts" frame of /admin/stream.
    static constexpr std::chrono::milliseconds HostsCoalescing{50};

    void setHostControllers(const QList<HostController *> &controllers);
    // Its finished requests and events also go to /admin/stream as they are recorded.
    void setHistory(HistoryStore *store);
    void setMetrics(const RelayMetrics *metrics) { m_metrics = metrics; }
    void setActiveRequests(const ActiveRequests *active) { m_active = active; }
    // Each host's "gpus" in /admin/hosts (an empty list where its agent reported none).
    void setGpuBoard(const GpuBoard *board);
    // Whose event feed is open: a host whose router streams its events reads "live" to a watcher.
    void setModelEvents(const ModelEvents *events) { m_events = events; }
    // Each host's "url", "reachable", "round_trip_ms", "last_poll" and "models" in /admin/hosts
    // (what a window watching this relay from elsewhere shows on its cards).
    void setCatalog(const Catalog *catalog);
    // Each host's "driver" (static, local, agent, command), from the config.
    void setDrivers(const QHash<QString, QString> &drivers) { m_drivers = drivers; }

    // /admin/stream's keepalive comment, every 15 s unless a test wants it sooner.
    void setStreamKeepalive(std::chrono::milliseconds interval);
    // Cuts every /admin/stream (the relay stops accepting; its watchers reconnect to the next).
    void endStreams();
    int streamSubscribers() const;
    // A request in flight moved on (Relay::requestProgress): an "active" frame to /admin/stream.
    void requestProgress(const switchyard::RequestRecord &record, switchyard::RequestPhase phase);

    // Returns the status it answered with (for the journal).
    void handleRequest(const IncomingRequest &request, ResponseWriter *writer) override;

private:
    void hosts(ResponseWriter *writer);
    QJsonArray hostsJson() const;
    QJsonValue nextSwitchJson(const HostController &controller) const;
    void stream(ResponseWriter *writer);
    void hostsChanged();
    void publishHosts();
    void takeLease(HostController *c, const IncomingRequest &request, ResponseWriter *writer);
    void switchEngine(HostController *c, const IncomingRequest &request, ResponseWriter *writer);
    void releaseLease(HostController *c, ResponseWriter *writer);
    void requests(const IncomingRequest &request, ResponseWriter *writer);
    void activeRequests(ResponseWriter *writer);
    void events(const IncomingRequest &request, ResponseWriter *writer);
    void stats(const IncomingRequest &request, ResponseWriter *writer);
    void usage(const IncomingRequest &request, ResponseWriter *writer);
    static void error(ResponseWriter *writer, const ClientReply &reply);

    QHash<QString, QPointer<HostController>> m_controllers;
    HistoryStore *m_store = nullptr;   // outlives the relay
    const RelayMetrics *m_metrics = nullptr;
    const ActiveRequests *m_active = nullptr;
    const GpuBoard *m_gpus = nullptr;
    const ModelEvents *m_events = nullptr;
    const Catalog *m_catalog = nullptr;
    QHash<QString, QString> m_drivers;
    const Clock *m_clock;
    AdminEventStream *m_stream;
    QTimer m_hostsChanged;          // coalesces host changes into one "hosts" frame
    bool m_modelsChanged = false;   // and a "models" frame with it
};

} // namespace switchyard
