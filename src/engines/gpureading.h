#pragma once

#include <QJsonArray>
#include <QList>
#include <QMetaType>
#include <QString>

#include <optional>

namespace switchyard {

// One GPU of a box, as `switchyard agent` reads it from nvidia-smi or rocm-smi. A figure the
// tool does not give ("[N/A]") is nullopt.
struct GpuReading
{
    int index = 0;                              // the tool's order on the box
    QString vendor;                             // "nvidia" | "amd"
    std::optional<qint64> memoryUsedMiB;
    std::optional<qint64> memoryTotalMiB;
    std::optional<int> utilizationPercent;
    std::optional<int> temperatureC;

    bool operator==(const GpuReading &o) const
    {
        return index == o.index && vendor == o.vendor && memoryUsedMiB == o.memoryUsedMiB
               && memoryTotalMiB == o.memoryTotalMiB && utilizationPercent == o.utilizationPercent
               && temperatureC == o.temperatureC;
    }
    bool operator!=(const GpuReading &o) const { return !(*this == o); }

    // As /agent/status and /admin/hosts carry them:
    // [{"index":0,"vendor":"nvidia","memory_used_mib":1,"memory_total_mib":2,"utilization_percent":3,"temperature_c":4}]
    static QJsonArray toJson(const QList<GpuReading> &gpus);
    // Entries that are not objects are skipped; missing or non-numeric figures are nullopt.
    static QList<GpuReading> fromJson(const QJsonArray &array);
};

} // namespace switchyard

Q_DECLARE_METATYPE(switchyard::GpuReading)
