#pragma once

#include "config/config.h"
#include "engines/enginedriver.h"

#include <QString>

#include <chrono>
#include <memory>

namespace switchyard {

class UpstreamPool;

// What a driver needs besides its host's config.
struct DriverContext
{
    // Where "local" hosts keep their state file and "command" hosts their logs;
    // empty = EngineSupervisor::defaultStateDir(). Usually Config::stateDir.
    QString stateDir;
    // Sent to agents whose host has no "token" of its own.
    QString agentToken;
    // Connections for /health checks and agent calls; null = each driver makes its own.
    UpstreamPool *pool = nullptr;
    // Giving up connecting to an agent or engine (Config::limits.upstreamConnectTimeout).
    std::chrono::milliseconds connectTimeout{std::chrono::seconds(10)};
};

// The driver host.driver names: StaticDriver, LocalDriver, AgentDriver or CommandDriver.
// An unknown driver name gives a StaticDriver (the config loader never lets one through).
std::unique_ptr<EngineDriver> createEngineDriver(const HostConfig &host, const DriverContext &context);

} // namespace switchyard
