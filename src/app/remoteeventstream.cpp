#include "app/remoteeventstream.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>

#include <algorithm>

namespace switchyard {

using namespace Qt::StringLiterals;

RemoteEventStream::RemoteEventStream(QNetworkAccessManager *network, std::function<QNetworkRequest()> request, QObject *parent)
    : QObject(parent)
    , m_network(network)
    , m_request(std::move(request))
{
    m_retry.setSingleShot(true);
    connect(&m_retry, &QTimer::timeout, this, &RemoteEventStream::connectNow);
}

RemoteEventStream::~RemoteEventStream()
{
    stop();
}

void RemoteEventStream::setRetryDelays(std::chrono::milliseconds first, std::chrono::milliseconds last)
{
    m_firstRetry = first;
    m_lastRetry = std::max(first, last);
}

void RemoteEventStream::start()
{
    if (m_state != State::Off)
        return;
    m_retryDelay = std::chrono::milliseconds(0);
    connectNow();
}

void RemoteEventStream::stop()
{
    m_retry.stop();
    m_state = State::Off;
    if (QNetworkReply *reply = m_reply) {
        m_reply = nullptr;
        reply->disconnect(this);
        reply->abort();
        reply->deleteLater();
    }
}

void RemoteEventStream::connectNow()
{
    ++m_attempts;
    m_buffer.clear();
    QNetworkRequest request = m_request();
    request.setRawHeader("Accept", "text/event-stream");
    // An inactivity limit, not a length: keepalives keep a quiet stream under it.
    request.setTransferTimeout(int(SilenceLimit.count()));
    request.setAttribute(QNetworkRequest::CacheLoadControlAttribute, QNetworkRequest::AlwaysNetwork);
    m_reply = m_network->get(request);
    m_state = State::Connecting;
    connect(m_reply, &QNetworkReply::readyRead, this, &RemoteEventStream::onReadyRead);
    connect(m_reply, &QNetworkReply::finished, this, &RemoteEventStream::onFinished);
}

void RemoteEventStream::onReadyRead()
{
    QNetworkReply *reply = m_reply;
    if (!reply)
        return;
    if (m_state == State::Connecting) {
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        const bool eventStream = reply->header(QNetworkRequest::ContentTypeHeader).toString().startsWith("text/event-stream"_L1);
        if (status != 200 || !eventStream)
            return;   // an error's body: read whole when it finishes
        m_state = State::Open;
        m_failure = Failure::None;
        m_failureText.clear();
        m_retryDelay = std::chrono::milliseconds(0);
        emit opened();
        emit stateChanged();
    }
    m_buffer += reply->readAll();
    parse();
}

void RemoteEventStream::parse()
{
    // Events end at an empty line; lines end in \n (or \r\n). Comments (": keepalive") are skipped.
    for (;;) {
        qsizetype end = m_buffer.indexOf("\n\n");
        qsizetype skip = 2;
        const qsizetype crlf = m_buffer.indexOf("\r\n\r\n");
        if (crlf >= 0 && (end < 0 || crlf < end)) {
            end = crlf;
            skip = 4;
        }
        if (end < 0)
            return;
        const QByteArray block = m_buffer.left(end);
        m_buffer.remove(0, end + skip);
        QByteArray name = "message";
        QByteArray data;
        bool hasData = false;
        for (QByteArray line : block.split('\n')) {
            if (line.endsWith('\r'))
                line.chop(1);
            if (line.isEmpty() || line.startsWith(':'))
                continue;
            const qsizetype colon = line.indexOf(':');
            const QByteArray field = colon < 0 ? line : line.left(colon);
            QByteArray value = colon < 0 ? QByteArray() : line.mid(colon + 1);
            if (value.startsWith(' '))
                value.remove(0, 1);
            if (field == "event") {
                name = value;
            } else if (field == "data") {
                if (hasData)
                    data += '\n';
                data += value;
                hasData = true;
            }
        }
        if (hasData)
            emit event(name, data);
        if (!m_reply)
            return;   // a slot stopped the stream
    }
}

void RemoteEventStream::onFinished()
{
    QNetworkReply *reply = m_reply;
    if (!reply)
        return;
    m_reply = nullptr;
    reply->deleteLater();
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (m_state == State::Open) {
        m_buffer += reply->readAll();
        parse();
        return fail(Failure::Cut, reply->error() == QNetworkReply::NoError ? tr("the relay ended the live events")
                                                                          : reply->errorString());
    }
    const QByteArray body = reply->readAll();
    QString message = QJsonDocument::fromJson(body).object().value("error"_L1).toObject().value("message"_L1).toString();
    if (message.isEmpty())
        message = QString::fromUtf8(body.left(200)).trimmed();
    if (status == 404 || status == 405 || status == 200)
        return fail(Failure::Unsupported, tr("%1: %2").arg(status).arg(message));
    if (status == 401 || status == 403)
        return fail(Failure::Refused, tr("%1: %2").arg(status).arg(message));
    fail(Failure::Cut, status ? tr("%1: %2").arg(status).arg(message) : reply->errorString());
}

void RemoteEventStream::fail(Failure failure, const QString &text)
{
    m_failure = failure;
    m_failureText = text;
    m_state = State::Waiting;
    m_retryDelay = m_retryDelay.count() == 0 ? m_firstRetry : std::min(m_retryDelay * 2, m_lastRetry);
    m_retry.start(m_retryDelay);
    emit stateChanged();
}

} // namespace switchyard
