#pragma once

#include "http/httpheaders.h"

#include <QByteArray>
#include <QByteArrayView>

namespace switchyard {

// The start line and header block of one HTTP/1.x request, as ClientConnection reads it
// (method, target, version, headers, and the framing of the body that follows).
struct RequestHead
{
    enum class State { Incomplete, Complete, Invalid };

    State state = State::Incomplete;
    QByteArray method;
    QByteArray target;
    int minorVersion = 1;        // HTTP/1.minor
    HeaderList headers;
    qsizetype headLength = 0;    // bytes up to and including the blank line
    qint64 contentLength = -1;   // -1 when absent
    bool chunked = false;
    bool expectContinue = false;
    QByteArray error;            // why the head is Invalid, for the refusal

    bool keepAlive() const;

    // Parses the head at the start of data. Never reads past the blank line.
    static RequestHead parse(QByteArrayView data, qsizetype maxHeadBytes);
};

} // namespace switchyard
