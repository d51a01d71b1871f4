#pragma once

#include "config/config.h"
#include "engines/agentservice.h"
#include "hosts/hostrefusal.h"
#include "hosts/hostticket.h"
#include "store/historyevent.h"

#include <QJsonObject>
#include <QObject>
#include <QPointer>
#include <QTimer>

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>

namespace switchyard {

class EngineDriver;
class HostController;
class PromptCacheKeeper;
class ResponseWriter;

// The agent's side of a box shared by several relays (agent protocol 2, issue 33): the one place
// where the box's switches and leases are decided. Each relay holds a place per request
// (POST /agent/hold); the box's own HostController schedules all of them together under the
// batch policy, drains every relay's streams before it stops an engine, and tells every relay
// what the box does (GET /agent/events). A place is given back when its connection closes, so a
// relay that dies releases everything it held.
class BoxArbiter final : public QObject, public BoxArbitration
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(BoxArbiter)

public:
    // `driver` starts and stops the box's engines (the agent's: a LocalDriver over its own
    // supervisor); `box` is how the agent names its box.
    BoxArbiter(std::unique_ptr<EngineDriver> driver, const QString &box, const SchedulingConfig &scheduling,
               QObject *parent = nullptr);
    ~BoxArbiter() override;

    // How a refusal is worded for the relay's logs and a protocol-1 relay's clients: the English
    // catalogue above this layer (src/replies); without one, the bare facts.
    using Wording = std::function<QString(const HostRefusal &)>;
    void setWording(Wording wording) { m_wording = std::move(wording); }

    bool handles(const QString &path) const override;
    void handle(const IncomingRequest &request, ResponseWriter *writer) override;
    QJsonObject boxJson() const override;

    HostController *controller() const { return m_controller; }
    // The box's saved prompt caches (the agent's): every relay sees how many and how much.
    void setPromptCacheKeeper(PromptCacheKeeper *keeper);
    int holds() const { return int(m_holds.size()); }

    // Every open stream (holds and watchers) hears a comment this often, so a relay that is gone
    // without closing its connection is found out, and a relay sees the agent is alive.
    static constexpr std::chrono::milliseconds Keepalive{std::chrono::seconds(15)};

Q_SIGNALS:
    // A line for the agent's console.
    void event(const QString &text);

private:
    struct Hold
    {
        HostTicket ticket;
        QString relay;
        QString engine;
        QString model;
        QString modelKey;
        QString app;
        bool command = false;
        bool sideCall = false;
        bool admitted = false;
        std::chrono::steady_clock::time_point since;
        QPointer<ResponseWriter> writer;
    };

    void hold(const IncomingRequest &request, ResponseWriter *writer);
    void watch(ResponseWriter *writer);
    void switchOnCommand(const IncomingRequest &request, ResponseWriter *writer);
    void lease(const IncomingRequest &request, ResponseWriter *writer);
    void admitted(quint64 id);
    void refused(quint64 id, const HostRefusal &why);
    void letGo(quint64 id);
    void publishBox();
    void keepAlive();
    static void openStream(ResponseWriter *writer);
    static void sendEvent(ResponseWriter *writer, QByteArrayView name, const QJsonObject &data);
    void replyJson(ResponseWriter *writer, int status, const QJsonObject &body);
    void replyRefusal(ResponseWriter *writer, const HostRefusal &why);

    QString m_box;
    HostController *m_controller;
    std::map<quint64, std::unique_ptr<Hold>> m_holds;   // by ticket id
    QList<QPointer<ResponseWriter>> m_watchers;
    QTimer m_keepalive;
    QTimer m_publish;   // coalesces a burst of changes into one "box" event
    QString m_switchFor;   // the model of the request that asked for the switch under way
    std::optional<HistoryEvent> m_lastPowerEvent;   // the box's last idle stop or sleep command
    Wording m_wording;
};

} // namespace switchyard
