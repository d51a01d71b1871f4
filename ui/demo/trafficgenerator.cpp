#include "demo/trafficgenerator.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>

namespace switchyard {

using namespace Qt::StringLiterals;

namespace {

constexpr int ManagerCount = 12;

QByteArray chatBody(const QString &alias, int maxTokens, bool stream)
{
    const QJsonObject message{{u"role"_s, u"user"_s},
                              {u"content"_s, u"Explain what a railway switchyard does, in one paragraph."_s}};
    return QJsonDocument(QJsonObject{{u"model"_s, alias},
                                     {u"stream"_s, stream},
                                     {u"max_tokens"_s, maxTokens},
                                     {u"messages"_s, QJsonArray{message}}})
        .toJson(QJsonDocument::Compact);
}

} // namespace

TrafficGenerator::TrafficGenerator(const QUrl &endpoint, QObject *parent)
    : QObject(parent)
    , m_endpoint(endpoint)
{
    for (int i = 0; i < ManagerCount; ++i)
        m_managers.append(new QNetworkAccessManager(this));
}

TrafficGenerator::~TrafficGenerator()
{
    abortAll();
}

QNetworkAccessManager *TrafficGenerator::nextManager()
{
    QNetworkAccessManager *m = m_managers.at(m_next);
    m_next = (m_next + 1) % int(m_managers.size());
    return m;
}

void TrafficGenerator::track(QNetworkReply *reply)
{
    m_running.append(reply);
    // Streams are read as they come, like a client would, and then dropped.
    connect(reply, &QNetworkReply::readyRead, reply, [reply] { reply->readAll(); });
    connect(reply, &QNetworkReply::finished, this, [this, reply] {
        m_running.removeOne(reply);
        ++m_finished;
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        reply->deleteLater();
        emit requestFinished(status);
    });
}

void TrafficGenerator::post(const QString &path, const QByteArray &body, const QString &userAgent)
{
    QUrl url = m_endpoint;
    url.setPath(path);
    QNetworkRequest request(url);
    request.setHeader(QNetworkRequest::ContentTypeHeader, u"application/json"_s);
    request.setHeader(QNetworkRequest::UserAgentHeader, userAgent.isEmpty() ? u"switchyard-traffic"_s : userAgent);
    track(nextManager()->post(request, body));
}

void TrafficGenerator::chat(const QString &alias, int maxTokens, const QString &userAgent)
{
    post(u"/v1/chat/completions"_s, chatBody(alias, maxTokens, true), userAgent);
}

void TrafficGenerator::complete(const QString &alias, int maxTokens, const QString &userAgent)
{
    post(u"/v1/chat/completions"_s, chatBody(alias, maxTokens, false), userAgent);
}

void TrafficGenerator::load(const QString &alias)
{
    post(u"/models/load"_s, QJsonDocument(QJsonObject{{u"model"_s, alias}}).toJson(QJsonDocument::Compact), {});
}

void TrafficGenerator::unload(const QString &alias)
{
    post(u"/models/unload"_s, QJsonDocument(QJsonObject{{u"model"_s, alias}}).toJson(QJsonDocument::Compact), {});
}

void TrafficGenerator::get(const QString &path)
{
    QUrl url = m_endpoint;
    url.setPath(path);
    track(nextManager()->get(QNetworkRequest(url)));
}

void TrafficGenerator::abortAll()
{
    const QList<QNetworkReply *> running = m_running;
    for (QNetworkReply *reply : running)
        reply->abort();
}

} // namespace switchyard
