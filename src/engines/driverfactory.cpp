#include "engines/driverfactory.h"

#include "engines/agentdriver.h"
#include "engines/commanddriver.h"
#include "engines/enginesupervisor.h"
#include "engines/localdriver.h"
#include "engines/staticdriver.h"

namespace switchyard {

using namespace Qt::StringLiterals;

std::unique_ptr<EngineDriver> createEngineDriver(const HostConfig &host, const DriverContext &context)
{
    const QString stateDir = context.stateDir.isEmpty() ? EngineSupervisor::defaultStateDir() : context.stateDir;
    if (host.driver == u"local")
        return std::make_unique<LocalDriver>(host, stateDir, context.pool);
    if (host.driver == u"agent") {
        const QString token = host.token.isEmpty() ? context.agentToken : host.token;
        return std::make_unique<AgentDriver>(host, token, context.pool, context.connectTimeout);
    }
    if (host.driver == u"command")
        return std::make_unique<CommandDriver>(host, stateDir, context.pool);
    return std::make_unique<StaticDriver>(host);
}

} // namespace switchyard
