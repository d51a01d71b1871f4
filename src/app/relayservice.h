#pragma once

#include "config/config.h"

#include <QObject>
#include <QUrl>

namespace switchyard {

class Catalog;
class ConsoleJournal;
class HistoryStore;
class HttpServer;
class ModelEvents;
class Relay;
class UpstreamPool;

// The relay as one unit: upstream pool, catalog, request handling and the HTTP server, wired
// together from a Config. The window, the tray and headless mode all run one of these.
class RelayService final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RelayService)

public:
    explicit RelayService(const Config &config, QObject *parent = nullptr);
    ~RelayService() override;

    bool start(QString *error);
    void stopAccepting();
    QUrl endpoint() const;

    void setJournal(ConsoleJournal *journal);
    // Every finished request goes into the store as well (it redacts and batches on its own).
    void setHistory(HistoryStore *store);

    Catalog *catalog() const { return m_catalog; }
    Relay *relay() const { return m_relay; }
    ModelEvents *modelEvents() const { return m_events; }
    HttpServer *server() const { return m_server; }
    const Config &config() const { return m_config; }

private:
    Config m_config;
    UpstreamPool *m_pool;
    Catalog *m_catalog;
    ModelEvents *m_events;
    Relay *m_relay;
    HttpServer *m_server;
};

} // namespace switchyard
