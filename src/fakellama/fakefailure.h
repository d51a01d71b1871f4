#pragma once

#include <QByteArray>
#include <QString>

#include <optional>

namespace switchyard::fake {

// A failure armed for the next request(s), as a box that misbehaves would.
struct FakeFailure
{
    enum class Mode {
        Drop,           // close the connection before answering (no byte)
        Stall,          // send the 200 headers, then nothing, for ever
        Status,         // answer status + body at once
        CrashMidStream, // close after afterEvents tokens, without the end of the stream
        ErrorMidStream, // after afterEvents tokens send an SSE error event and end the stream
        Garbage,        // answer bytes that are not HTTP (body, or a default), then close
    };

    Mode mode = Mode::Drop;
    int status = 500;       // Status
    QByteArray body;        // Status, Garbage; JSON or plain text; empty = a generic error JSON
    int afterEvents = 0;    // CrashMidStream, ErrorMidStream: tokens sent before failing
    QByteArray path;        // only requests to this path; empty = any request for a model

    static std::optional<Mode> modeFromName(const QString &name); // drop stall status crash error garbage
    static QString modeName(Mode mode);
};

} // namespace switchyard::fake
