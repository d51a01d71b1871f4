#pragma once

#include <QByteArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>

namespace switchyard {

struct IncomingRequest;
class ResponseWriter;

// Answers requests. The writer lives until finish() or until the client goes away; hold it in a
// QPointer when answering later.
class RequestHandler
{
public:
    virtual ~RequestHandler() = default;
    virtual void handleRequest(const IncomingRequest &request, ResponseWriter *writer) = 0;

    // A request refused while it was being read (408, 413, a malformed head), already answered:
    // for the journal and the history. Only what was read is set (method and path may be empty).
    virtual void requestRefused(const IncomingRequest &request, int status, const QString &message)
    {
        Q_UNUSED(request);
        Q_UNUSED(status);
        Q_UNUSED(message);
    }

    // The JSON body of a refusal made while reading a request (408, 413, a malformed head), in
    // the error shape this handler's clients expect on `path`.
    virtual QByteArray refusalBody(int status, const QByteArray &path, const QString &message) const
    {
        Q_UNUSED(path);
        const QJsonObject error{{QStringLiteral("code"), status}, {QStringLiteral("message"), message}};
        return QJsonDocument(QJsonObject{{QStringLiteral("error"), error}}).toJson(QJsonDocument::Compact);
    }
};

} // namespace switchyard
