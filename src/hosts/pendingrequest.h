#pragma once

#include <QString>

#include <chrono>

namespace switchyard {

// A request a host runs or keeps waiting, as its state machine knows it.
struct PendingRequest
{
    quint64 id;
    QString engine;
    QString alias;
    std::chrono::steady_clock::time_point since{};
    bool command = false;   // a switch on command, not a client's request
    bool sideCall = false;  // a client's side call (a title, a small-model call): waits less
};

} // namespace switchyard
