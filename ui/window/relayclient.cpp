#include "window/relayclient.h"

#include "app/remoterelayfeed.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>

namespace switchyard {

using namespace Qt::StringLiterals;

RelayClient::RelayClient(QObject *parent)
    : QObject(parent)
    , m_network(new QNetworkAccessManager(this))
{
}

void RelayClient::load(const QString &alias)
{
    post(u"/models/load"_s, alias, true);
}

void RelayClient::unload(const QString &alias)
{
    post(u"/models/unload"_s, alias, false);
}

void RelayClient::post(const QString &path, const QString &alias, bool load)
{
    if (m_remote) {
        auto done = [this, alias, load](int status, const QString &message) {
            const bool ok = status >= 200 && status < 300;
            emit finished(alias, load, ok, ok || !message.isEmpty() ? message : tr("HTTP %1").arg(status));
        };
        if (load)
            m_remote->loadModel(alias, done);
        else
            m_remote->unloadModel(alias, done);
        return;
    }
    QUrl url = m_endpoint;
    url.setPath(path);
    QNetworkRequest request(url);
    request.setHeader(QNetworkRequest::ContentTypeHeader, u"application/json"_s);
    request.setHeader(QNetworkRequest::UserAgentHeader, u"switchyard-desktop/" SWITCHYARD_VERSION ""_s);
    if (!m_apiKey.isEmpty())
        request.setRawHeader("Authorization", "Bearer " + m_apiKey);
    const QByteArray body = QJsonDocument(QJsonObject{{u"model"_s, alias}}).toJson(QJsonDocument::Compact);
    QNetworkReply *reply = m_network->post(request, body);
    connect(reply, &QNetworkReply::sslErrors, this, [this, reply] {
        // Only the relay's own certificate, and only on this reply.
        if (!m_relayCertificates.isEmpty() && m_relayCertificates.contains(reply->sslConfiguration().peerCertificate()))
            reply->ignoreSslErrors();
    });
    connect(reply, &QNetworkReply::finished, this, [this, reply, alias, load] {
        reply->deleteLater();
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        const QByteArray answer = reply->readAll();
        const bool ok = status >= 200 && status < 300;
        QString message;
        if (!ok) {
            // Both the relay's and llama.cpp's errors are {"error": {"message": ...}}.
            const QJsonObject error = QJsonDocument::fromJson(answer).object().value("error"_L1).toObject();
            message = error.value("message"_L1).toString();
            if (message.isEmpty())
                message = status ? tr("HTTP %1").arg(status) : reply->errorString();
        }
        emit finished(alias, load, ok, message);
    });
}

} // namespace switchyard
