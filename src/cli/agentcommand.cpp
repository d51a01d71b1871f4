#include "cli/agentcommand.h"

#include "common/unixsignals.h"
#include "config/configloader.h"
#include "engines/agentservice.h"
#include "engines/enginesupervisor.h"
#include "engines/localdriver.h"
#include "hosts/boxarbiter.h"
#include "hosts/hostcontroller.h"
#include "hosts/promptcachekeeper.h"
#include "store/historystore.h"
#include "upstream/upstreampool.h"
#include "common/clock.h"
#include "replies/clientreplies.h"
#include "journal/journalformat.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QSysInfo>

#include <memory>

namespace switchyard {

using namespace Qt::StringLiterals;

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("AgentCommand", text);
}

QString usage()
{
    return tr("Usage: switchyard agent --config FILE [--listen HOST:PORT]\n"
              "\n"
              "Runs on a GPU box: starts and stops its llama.cpp engines when the relay asks.\n"
              "\n"
              "Options:\n"
              "  --config FILE         the agent's engines, token and address (JSON, see docs/CONFIG.md)\n"
              "  --listen HOST:PORT    address to serve on, instead of the file's \"listen\"\n"
              "  -h, --help            this text\n");
}

} // namespace

int runAgentCommand(const QStringList &arguments, QTextStream &out, QTextStream &err)
{
    QString configPath;
    QString listen;
    for (qsizetype i = 0; i < arguments.size(); ++i) {
        const QString &a = arguments.at(i);
        if (a == "-h"_L1 || a == "--help"_L1) {
            out << usage();
            return 0;
        }
        if (a == "--config"_L1 || a == "--listen"_L1) {
            if (i + 1 >= arguments.size()) {
                err << "switchyard agent: " << tr("%1 needs a value").arg(a) << Qt::endl;
                return 2;
            }
            (a == "--config"_L1 ? configPath : listen) = arguments.at(++i);
            continue;
        }
        err << "switchyard agent: " << tr("unknown option %1").arg(a) << Qt::endl << usage();
        return 2;
    }
    if (configPath.isEmpty()) {
        err << "switchyard agent: " << tr("--config FILE is required") << Qt::endl << usage();
        return 2;
    }

    const AgentConfigResult loaded = ConfigLoader::loadAgent(configPath);
    for (const ConfigError &e : loaded.errors)
        err << e.toString() << Qt::endl;
    for (ConfigError w : loaded.warnings) {
        w.message = QCoreApplication::translate("CheckConfig", "warning: %1").arg(w.message);
        err << w.toString() << Qt::endl;
    }
    if (!loaded.ok())
        return 1;
    AgentConfig config = *loaded.config;
    if (!listen.isEmpty()) {
        QString why;
        if (!ConfigLoader::parseListen(listen, &config.listenAddress, &config.listenPort, &why)) {
            err << "switchyard agent: --listen: " << why << Qt::endl;
            return 2;
        }
    }

    AgentService service(config);
    auto print = [&out](const QString &text) {
        out << JournalFormat::eventLine(QDateTime::currentDateTime(), text) << Qt::endl;
    };
    QObject::connect(&service, &AgentService::event, &service, print);
    QString error;
    if (!service.start(&error)) {
        err << "switchyard agent: " << error << Qt::endl;
        return 1;
    }
    // The keeper's calls and index below: declared before the arbiter, which owns the keeper.
    UpstreamPool slotCalls;
    std::unique_ptr<HistoryStore> slotIndex;
    // The one place where this box's switches and leases are decided, for every relay (issue 33).
    const QString box = QSysInfo::machineHostName();
    BoxArbiter arbiter(std::make_unique<LocalDriver>(box, service.supervisor()), box, config.scheduling);
    arbiter.setWording([](const HostRefusal &why) { return ClientReplies::fromHost(why).message; });
    QObject::connect(&arbiter, &BoxArbiter::event, &service, print);
    service.setArbiter(&arbiter);
    const HostConfig boxHost = config.asLocalHost(box);
    // Idle stop and sleep are decided here, where every relay's requests are seen (issue 33).
    arbiter.controller()->setPower(boxHost, nullptr);
    // The box's saved prompt caches are the agent's (issue 33): it stops the engines, so it saves
    // their slots first and restores them before it admits a relay's request, whichever relay
    // asks. The index of what is saved where is kept beside the engines' state, so an agent
    // restart forgets nothing (issue 31).
    if (config.promptCache.enabled()) {
        auto *keeper = new PromptCacheKeeper(boxHost, &slotCalls, nullptr);
        arbiter.setPromptCacheKeeper(keeper);
        const QString stateDir = config.stateDir.isEmpty() ? EngineSupervisor::defaultStateDir() : config.stateDir;
        slotIndex = std::make_unique<HistoryStore>(stateDir + u"/agent-prompt-caches.sqlite"_s, systemClock());
        if (slotIndex->isOpen())
            keeper->setIndex(slotIndex.get());
        else
            print(tr("prompt caches are kept until the agent stops: %1").arg(slotIndex->errorString()));
    }
    QStringList names;
    for (const EngineConfig &engine : std::as_const(config.engines))
        names.append(engine.name);
    const QUrl endpoint = service.endpoint();
    out << tr("switchyard agent listening on http://%1 (engines: %2; agent protocol %3)")
               .arg(endpoint.authority(), names.join(u", "_s))
               .arg(service.protocol())
        << Qt::endl;

    // First SIGTERM/SIGINT: stop the engines in order, then exit 0. A second one: now.
    UnixSignals unixSignals;
    int received = 0;
    QObject::connect(&unixSignals, &UnixSignals::terminationRequested, &service, [&](int) {
        if (++received == 1) {
            print(tr("stopping engines"));
            service.shutdown();
            return;
        }
        service.supervisor()->stopAllNow();
        QCoreApplication::exit(0);
    });
    QObject::connect(&service, &AgentService::shutdownFinished, &service, [] { QCoreApplication::exit(0); });
    return QCoreApplication::exec();
}

} // namespace switchyard
