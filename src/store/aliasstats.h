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

} // namespace switchyard
