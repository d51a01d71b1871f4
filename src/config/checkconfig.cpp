#include "config/checkconfig.h"

#include "config/configloader.h"

#include <QCoreApplication>

#include <algorithm>

namespace switchyard {

int runCheckConfig(const QString &path, QTextStream &out, QTextStream &err)
{
    const ConfigResult result = ConfigLoader::load(path);

    // Errors and warnings together in file order; warnings never change the exit code.
    QList<ConfigError> report = result.errors;
    for (ConfigError warning : result.warnings) {
        warning.message = QCoreApplication::translate("CheckConfig", "warning: %1").arg(warning.message);
        report.append(warning);
    }
    std::stable_sort(report.begin(), report.end(),
                     [](const ConfigError &a, const ConfigError &b) { return a.line < b.line; });
    for (const ConfigError &line : report)
        err << line.toString() << Qt::endl;

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
    const int engineTotal = int(engines);
    const QString engineCount = engineTotal == 1
            ? QCoreApplication::translate("CheckConfig", "%n engine", nullptr, engineTotal)
            : QCoreApplication::translate("CheckConfig", "%n engines", nullptr, engineTotal);
    out << QCoreApplication::translate("CheckConfig", "%1: ok (%2, %3)").arg(path, hostCount, engineCount)
        << Qt::endl;
    return 0;
}

} // namespace switchyard
