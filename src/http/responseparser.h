#pragma once

#include "http/httpheaders.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QString>

namespace switchyard {

// Incremental HTTP/1.1 response parser: status line, headers, then the body by Content-Length,
// chunked framing, or until the connection closes. Pure (no I/O), so it can be fuzzed.
class ResponseParser
{
public:
    enum class State { StatusLine, Headers, Body, ChunkSize, ChunkData, ChunkDataEnd, Trailers, UntilClose, Done, Error };

    explicit ResponseParser(bool headRequest = false) : m_headRequest(headRequest) {}
    // Decodes a chunked body alone: a request's, whose head was parsed elsewhere.
    static ResponseParser chunkedBody();

    // Consumes bytes and appends decoded body bytes to *body. Returns how many bytes were used;
    // bytes after the end of the response are left unconsumed.
    qsizetype feed(QByteArrayView input, QByteArray *body);
    // The connection closed: a body framed by the close is complete, anything else is not.
    void connectionClosed();

    State state() const { return m_state; }
    bool headComplete() const { return m_headDone; }
    bool isDone() const { return m_state == State::Done; }
    bool hasError() const { return m_state == State::Error; }
    QString errorString() const { return m_error; }
    int status() const { return m_status; }
    const HeaderList &headers() const { return m_headers; }
    qint64 contentLength() const { return m_contentLength; }
    bool isChunked() const { return m_chunked; }
    // After Done: may the connection carry another request?
    bool keepAlive() const;

private:
    bool parseHeaderLine(QByteArrayView line);
    void fail(const QString &why);
    void headersDone();

    State m_state = State::StatusLine;
    bool m_headRequest;
    int m_status = 0;
    int m_minorVersion = 1;
    HeaderList m_headers;
    qint64 m_contentLength = -1;
    qint64 m_remaining = 0;
    bool m_chunked = false;
    bool m_headDone = false;
    QByteArray m_line;        // partial line carried between feeds
    qsizetype m_headBytes = 0;
    QString m_error;
};

} // namespace switchyard
