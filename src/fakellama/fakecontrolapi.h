#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QString>

namespace switchyard::fake {

class FakeLlamaServer;
struct FakeHttpRequest;

// The /__fake/ endpoints: FakeLlamaServer's test knobs over HTTP, for a test
// that runs the fake as a child process.
//   GET  /__fake/requests[?since=SEQ]  the recorded requests, as a JSON array
//   POST /__fake/reset                 forget the records and the armed failures
//   POST /__fake/config                {"tokens_per_s":N, "load_ms":N, "unload_ms":N, "prefill_ms":N,
//                                       "ping_ms":N, "max_models":N, "autoload":B, "reject_late_system":B,
//                                       "max_reply_tokens":N, "model_status":{"name":"loaded",…},
//                                       "fail_load":{"name":true,…},
//                                       "fail_next":{"count":1,"mode":"drop|stall|status|crash|error",
//                                                    "status":502,"body":"…" or {…},"after_events":K,"path":"/x"}}
class FakeControlApi final
{
    Q_DISABLE_COPY_MOVE(FakeControlApi)

public:
    struct Answer
    {
        int status = 200;
        QByteArray body; // JSON
    };

    explicit FakeControlApi(FakeLlamaServer &server);

    Answer answer(const FakeHttpRequest &request);
    // Applies a /__fake/config body; returns what was wrong, if anything.
    // An unknown knob is refused before anything changes.
    QString applyConfig(const QJsonObject &config);

private:
    FakeLlamaServer &m_server;
};

} // namespace switchyard::fake
