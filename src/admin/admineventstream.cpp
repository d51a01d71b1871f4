#include "admin/admineventstream.h"

#include "http/responsewriter.h"

namespace switchyard {

AdminEventStream::AdminEventStream(QObject *parent)
    : QObject(parent)
{
    m_keepalive.setInterval(DefaultKeepalive);
    connect(&m_keepalive, &QTimer::timeout, this, &AdminEventStream::keepalive);
}

// The writers belong to their connections, which the relay's server closes as it goes.
AdminEventStream::~AdminEventStream() = default;

void AdminEventStream::setKeepaliveInterval(std::chrono::milliseconds interval)
{
    m_keepalive.setInterval(interval);
}

QByteArray AdminEventStream::frame(QByteArrayView event, QByteArrayView json)
{
    QByteArray out;
    out.reserve(event.size() + json.size() + 16);
    out.append("event: ").append(event).append("\ndata: ").append(json).append("\n\n");
    return out;
}

void AdminEventStream::subscribe(ResponseWriter *writer, const QList<Frame> &opening)
{
    writer->writeHead(200, {{"Content-Type", "text/event-stream"}, {"Cache-Control", "no-store"}, {"X-Accel-Buffering", "no"}},
                      -1, ResponseWriter::Flush::WithNext);
    QByteArray first;
    for (const Frame &f : opening)
        first += frame(f.first, f.second);
    writer->writeBody(first.isEmpty() ? QByteArray(": open\n\n") : first);
    m_writers.append(writer);
    // The client left: the response ends (after the connection's own handling of the loss, not
    // inside it), so that the relay's record of it ends too.
    connect(writer, &ResponseWriter::clientDisconnected, this, [this, w = QPointer<ResponseWriter>(writer)] {
        forget(w);
        QMetaObject::invokeMethod(w, [w] { if (w && !w->isFinished()) w->abort(); }, Qt::QueuedConnection);
    });
    if (!m_keepalive.isActive())
        m_keepalive.start();
}

void AdminEventStream::send(QByteArrayView event, QByteArrayView json)
{
    if (m_writers.isEmpty())
        return;
    const QByteArray bytes = frame(event, json);
    for (const QPointer<ResponseWriter> &w : QList<QPointer<ResponseWriter>>(m_writers)) {
        if (!w || w->clientGone())
            forget(w);
        else if (w->congested())
            drop(w);   // behind by the write buffer's worth: it pages instead
        else
            w->writeBody(bytes);
    }
}

void AdminEventStream::forget(ResponseWriter *writer)
{
    m_writers.removeAll(writer);
    m_writers.removeAll(nullptr);
    if (m_writers.isEmpty())
        m_keepalive.stop();
}

void AdminEventStream::drop(ResponseWriter *writer)
{
    forget(writer);
    if (writer && !writer->isFinished())
        writer->abort();
}

void AdminEventStream::end()
{
    const QList<QPointer<ResponseWriter>> writers = std::exchange(m_writers, {});
    for (const QPointer<ResponseWriter> &w : writers) {
        if (w && !w->isFinished())
            w->abort();
    }
    m_keepalive.stop();
}

void AdminEventStream::keepalive()
{
    for (const QPointer<ResponseWriter> &w : QList<QPointer<ResponseWriter>>(m_writers)) {
        if (!w || w->clientGone())
            forget(w);
        else if (!w->congested())
            w->writeBody(": keepalive\n\n");
    }
}

} // namespace switchyard
