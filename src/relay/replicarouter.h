#pragma once

#include "relay/modelresolver.h"
#include "relay/replicachooser.h"

#include <QHash>
#include <QObject>
#include <QSet>

#include <chrono>

namespace switchyard {

class Catalog;
class HostController;
class UpstreamPool;

// What the relay knows of each replica of a replicated alias, handed to the ReplicaChooser: the
// catalog's view of its engine and model, its host's lease and queue, the relay's own requests on
// it, and its engine's slots (total_slots of GET /props?model=, read once the model is loaded).
// Remembers which replica served each conversation (JsonModelField::conversation).
class ReplicaRouter final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ReplicaRouter)

public:
    ReplicaRouter(Catalog *catalog, UpstreamPool *pool, std::chrono::milliseconds connectTimeout,
                  QObject *parent = nullptr);
    ~ReplicaRouter() override;

    void setHostControllers(const QHash<QString, HostController *> &controllers) { m_controllers = controllers; }

    struct Plan
    {
        QList<ModelRoute::Target> order;   // best first: the choice, then failover's order
        ReplicaChooser::Choice choice;
    };
    Plan plan(const ModelRoute &route, quint64 conversation) const;
    // The conversation a request continues: its client key (its name; empty without keys) and its
    // prompt's prefix (JsonModelField::conversation), so two clients that open alike are told
    // apart. 0 when the body has no prefix: such a request sticks nowhere.
    static quint64 conversationKey(const QString &clientKey, quint64 promptPrefix);
    ReplicaChooser::Replica stateOf(const ModelRoute::Target &target) const;

    // The relay's own requests for a model of a host, counted from forwarding to their end.
    void started(const ModelRoute::Target &target) { ++m_inFlight[target.host + u'\n' + target.key]; }
    void finished(const ModelRoute::Target &target);
    int inFlight(const ModelRoute::Target &target) const { return m_inFlight.value(target.host + u'\n' + target.key); }
    // This conversation's turn was answered by host: its next turn goes there while it can.
    void served(quint64 conversation, const QString &host);
    // 0 when not known (yet).
    int totalSlots(const QString &host, const QString &key) const { return m_slots.value(host + u'\n' + key); }

    static constexpr int MaxConversations = 4096;

private:
    void readSlots(const QString &host);

    Catalog *m_catalog;
    UpstreamPool *m_pool;
    std::chrono::milliseconds m_connectTimeout;
    QHash<QString, HostController *> m_controllers;
    ReplicaChooser m_chooser;
    QHash<QString, int> m_inFlight;       // "host\nkey"
    QHash<quint64, QString> m_conversations;
    QList<quint64> m_conversationOrder;   // oldest first, to forget beyond MaxConversations
    QSet<QString> m_targets;              // "host\nkey" of every replica: whose slots to read
    QHash<QString, int> m_slots;          // "host\nkey" -> total_slots
    QSet<QString> m_reading;              // "host\nkey" asked now
};

} // namespace switchyard
