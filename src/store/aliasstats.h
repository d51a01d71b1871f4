#pragma once

#include <QMap>
#include <QString>

#include <optional>

namespace switchyard {

// What one alias did over a period: how often it was asked for, how often it failed, and the
// typical first-byte time and generation speed (medians, so one stuck request does not skew it).
struct AliasStat
{
    QString alias;                                   // empty: requests without a model
    qint64 requests = 0;
    qint64 errors = 0;                               // status >= 400
    std::optional<double> medianTtfbMs;              // over the requests that had a first byte
    std::optional<double> medianTokensPerSecond;     // over the requests that streamed tokens
};

// Keyed by alias, so it iterates in a stable order.
using AliasStats = QMap<QString, AliasStat>;

// Whether a request to a model counts as using it ("Today", "Last used"): a load or unload
// (the window's own, or a tool's: /models/...) does not, nor a 423 (the host was leased, the
// model was not used).
inline bool countsAsUse(const QString &path, int status)
{
    return status != 423 && !path.startsWith(QLatin1String("/models/"));
}

} // namespace switchyard
