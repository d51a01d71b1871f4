#include "config/checkconfig.h"

#include "config/configloader.h"

#include <QCoreApplication>
#include <QFile>

#include <algorithm>

namespace switchyard {

namespace {

// Errors and warnings together in file order; warnings never change the exit code.
void printReport(const QList<ConfigError> &errors, const QList<ConfigError> &warnings, QTextStream &err)
{
    QList<ConfigError> report = errors;
    for (ConfigError warning : warnings) {
        warning.message = QCoreApplication::translate("CheckConfig", "warning: %1").arg(warning.message);
        report.append(warning);
    }
    std::stable_sort(report.begin(), report.end(),
                     [](const ConfigError &a, const ConfigError &b) { return a.line < b.line; });
    for (const ConfigError &line : report)
        err << line.toString() << Qt::endl;
}

QString engineCountText(int engineTotal)
{
    // Singular and plural as separate sources, so the English text is right without a .qm loaded.
    return engineTotal == 1
            ? QCoreApplication::translate("CheckConfig", "%n engine", nullptr, engineTotal)
            : QCoreApplication::translate("CheckConfig", "%n engines", nullptr, engineTotal);
}

} // namespace

int runCheckConfig(const QString &path, QTextStream &out, QTextStream &err)
{
    // An agent's file (`switchyard agent --config`) is checked as one.
    QFile file(path);
    if (file.open(QIODevice::ReadOnly) && ConfigLoader::looksLikeAgentConfig(file.readAll())) {
        const AgentConfigResult agent = ConfigLoader::loadAgent(path);
        printReport(agent.errors, agent.warnings, err);
        if (!agent.ok())
            return 1;
        out << QCoreApplication::translate("CheckConfig", "%1: ok (agent, %2)")
                   .arg(path, engineCountText(int(agent.config->engines.size())))
            << Qt::endl;
        return 0;
    }

    const ConfigResult result = ConfigLoader::load(path);
    printReport(result.errors, result.warnings, err);
    if (!result.ok())
        return 1;

    const Config &config = *result.config;
    qsizetype engines = 0;
    for (const HostConfig &host : config.hosts)
        engines += host.engines.size();
    // Singular and plural as separate sources, so the English text is right without a .qm loaded.
    const int hostTotal = int(config.hosts.size());
    const QString hostCount = hostTotal == 1
            ? QCoreApplication::translate("CheckConfig", "%n host", nullptr, hostTotal)
            : QCoreApplication::translate("CheckConfig", "%n hosts", nullptr, hostTotal);
    const QString engineCount = engineCountText(int(engines));
    out << QCoreApplication::translate("CheckConfig", "%1: ok (%2, %3)").arg(path, hostCount, engineCount)
        << Qt::endl;
    // How each host that switches orders its requests (docs/HOSTS.md), defaults included.
    for (const HostConfig &host : config.hosts) {
        if (host.driver == QLatin1String("static"))
            continue;
        const SchedulingConfig &s = host.scheduling;
        if (s.policy == SchedulingConfig::Policy::Arrival) {
            out << QCoreApplication::translate("CheckConfig", "  host %1: requests in arrival order").arg(host.name)
                << Qt::endl;
        } else {
            out << QCoreApplication::translate("CheckConfig",
                                               "  host %1: requests batched by engine (dwell %2 s, max wait %3 s, side calls %4 s)")
                       .arg(host.name, QString::number(s.dwell.count() / 1000.0), QString::number(s.maxWait.count() / 1000.0),
                            QString::number(s.waitLimit(true).count() / 1000.0))
                << Qt::endl;
        }
        // Where prompt caches go, so a local host's default folder is no surprise.
        if (host.promptCache.enabled())
            out << QCoreApplication::translate("CheckConfig", "  host %1: prompt caches kept in %2 (at most %3 MB)")
                       .arg(host.name, host.promptCache.dir)
                       .arg(host.promptCache.maxBytes / (1024 * 1024))
                << Qt::endl;
    }
    return 0;
}

} // namespace switchyard
