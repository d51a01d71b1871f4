#pragma once

#include "engines/enginefailure.h"

#include <QDateTime>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <chrono>
#include <optional>

namespace switchyard {

// Why a host turns a request or a command away: a reason and its facts, never the words. The
// catalogue (src/replies) words it for API clients, in English; the window words it through tr().
struct HostRefusal
{
    enum class Reason {
        Leased,           // 423: owner holds the GPU until `until`
        SwitchFailed,     // 424: `engine` did not come up; `failure`: why, as the driver says
        StaticHost,       // 409: a switch asked of a host with one static engine
        NoSuchEngine,     // 400: `engine` is not one of `engines`
        LeaseTakenOver,   // 409: a waiting lease was taken by `owner` before it was granted
        LeaseReleased,    // 409: a waiting lease was released before it was granted
        WakeTimedOut,     // 424: the host did not answer within `wakeTimeout`
    };

    Reason reason = Reason::Leased;
    QString host;
    QString engine;
    QStringList engines;
    QString owner;
    QDateTime until;
    std::optional<EngineFailure> failure;
    std::chrono::milliseconds wakeTimeout{0};

    int status() const;
    // The facts in one line, for logs and tests of the host alone; never a client's text.
    QString facts() const;
    // The facts for the agent protocol: a shared box's agent refuses, each relay words it.
    QJsonObject toJson() const;
    static HostRefusal fromJson(const QJsonObject &object);
};

} // namespace switchyard
