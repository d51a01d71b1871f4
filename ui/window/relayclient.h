#pragma once

#include <QList>
#include <QObject>
#include <QPointer>
#include <QSslCertificate>
#include <QUrl>

class QNetworkAccessManager;

namespace switchyard {

class RemoteRelayFeed;

// Asks the relay, through its own HTTP endpoint like any client, to load or unload a model:
// POST /models/load and /models/unload with {"model": alias}. Going through the endpoint
// means the window does exactly what a client would, switch and journal line included. A relay
// watched from elsewhere is asked through its admin API instead (the admin token opens no client
// route): POST /admin/models/load and /unload, served there as a client's.
class RelayClient final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RelayClient)

public:
    explicit RelayClient(QObject *parent = nullptr);

    void setEndpoint(const QUrl &endpoint) { m_endpoint = endpoint; }
    QUrl endpoint() const { return m_endpoint; }
    // A relay with client keys wants one, like any client (the first configured key is fine).
    void setApiKey(const QString &key) { m_apiKey = key.toUtf8(); }
    // A relay serving HTTPS with its own (often self-signed) certificate: trust exactly that one.
    void setRelayCertificates(const QList<QSslCertificate> &chain) { m_relayCertificates = chain; }
    // Loads and unloads go to this watched relay (null: to the endpoint again).
    void setRemote(switchyard::RemoteRelayFeed *feed) { m_remote = feed; }

    void load(const QString &alias);
    void unload(const QString &alias);

Q_SIGNALS:
    // ok: the relay answered 2xx. message: what it said, for the status bar.
    void finished(const QString &alias, bool load, bool ok, const QString &message);

private:
    void post(const QString &path, const QString &alias, bool load);

    QNetworkAccessManager *m_network;
    QUrl m_endpoint;
    QByteArray m_apiKey;
    QList<QSslCertificate> m_relayCertificates;
    QPointer<RemoteRelayFeed> m_remote;
};

} // namespace switchyard
