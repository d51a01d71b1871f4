#include "engines/gpureading.h"

#include <QJsonObject>

namespace switchyard {

using namespace Qt::StringLiterals;

namespace {

template <typename T>
QJsonValue number(const std::optional<T> &v)
{
    return v ? QJsonValue(double(*v)) : QJsonValue(QJsonValue::Null);
}

template <typename T>
std::optional<T> numberFrom(const QJsonValue &v)
{
    if (!v.isDouble())
        return std::nullopt;
    return T(v.toDouble());
}

} // namespace

QJsonArray GpuReading::toJson(const QList<GpuReading> &gpus)
{
    QJsonArray out;
    for (const GpuReading &g : gpus) {
        out.append(QJsonObject{{"index"_L1, g.index},
                               {"vendor"_L1, g.vendor},
                               {"memory_used_mib"_L1, number(g.memoryUsedMiB)},
                               {"memory_total_mib"_L1, number(g.memoryTotalMiB)},
                               {"utilization_percent"_L1, number(g.utilizationPercent)},
                               {"temperature_c"_L1, number(g.temperatureC)}});
    }
    return out;
}

QList<GpuReading> GpuReading::fromJson(const QJsonArray &array)
{
    QList<GpuReading> out;
    for (const QJsonValue &value : array) {
        if (!value.isObject())
            continue;
        const QJsonObject o = value.toObject();
        GpuReading g;
        g.index = o.value("index"_L1).toInt(int(out.size()));
        g.vendor = o.value("vendor"_L1).toString();
        g.memoryUsedMiB = numberFrom<qint64>(o.value("memory_used_mib"_L1));
        g.memoryTotalMiB = numberFrom<qint64>(o.value("memory_total_mib"_L1));
        g.utilizationPercent = numberFrom<int>(o.value("utilization_percent"_L1));
        g.temperatureC = numberFrom<int>(o.value("temperature_c"_L1));
        out.append(g);
    }
    return out;
}

} // namespace switchyard
