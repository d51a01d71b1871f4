#include "engines/gpustatsparser.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>

namespace switchyard {

using namespace Qt::StringLiterals;

namespace {

// A field of nvidia-smi's CSV: true with *value unset for N/A, false when it is not a number.
bool csvNumber(const QByteArray &field, std::optional<double> *value)
{
    const QByteArray f = field.trimmed();
    if (f == "[N/A]" || f == "N/A" || f == "[Not Supported]") {
        value->reset();
        return true;
    }
    bool ok = false;
    const double v = f.toDouble(&ok);
    if (!ok || !std::isfinite(v) || v < 0)
        return false;
    *value = v;
    return true;
}

// rocm-smi writes its figures as strings ("41.0"); some versions as numbers.
std::optional<double> jsonNumber(const QJsonValue &v)
{
    if (v.isDouble())
        return v.toDouble();
    bool ok = false;
    const double d = v.toString().trimmed().toDouble(&ok);
    return ok && std::isfinite(d) && d >= 0 ? std::optional<double>(d) : std::nullopt;
}

constexpr double MiB = 1024.0 * 1024.0;

} // namespace

QStringList GpuStatsParser::nvidiaSmiArguments()
{
    return {u"--query-gpu=memory.used,memory.total,utilization.gpu,temperature.gpu"_s,
            u"--format=csv,noheader,nounits"_s};
}

QStringList GpuStatsParser::rocmSmiArguments()
{
    return {u"--showmeminfo"_s, u"vram"_s, u"--showuse"_s, u"--showtemp"_s, u"--json"_s};
}

QList<GpuReading> GpuStatsParser::parseNvidiaSmi(QByteArrayView output, QStringList *skipped)
{
    QList<GpuReading> out;
    for (const QByteArray &raw : output.toByteArray().split('\n')) {
        const QByteArray line = raw.trimmed();
        if (line.isEmpty())
            continue;
        const QList<QByteArray> fields = line.split(',');
        std::optional<double> values[4];
        bool ok = fields.size() == 4;
        for (int i = 0; ok && i < 4; ++i)
            ok = csvNumber(fields.at(i), &values[i]);
        if (!ok) {
            if (skipped)
                skipped->append(QString::fromUtf8(line.left(200)));
            continue;
        }
        GpuReading g;
        g.index = int(out.size());
        g.vendor = u"nvidia"_s;
        if (values[0])
            g.memoryUsedMiB = qint64(std::llround(*values[0]));
        if (values[1])
            g.memoryTotalMiB = qint64(std::llround(*values[1]));
        if (values[2])
            g.utilizationPercent = int(std::lround(*values[2]));
        if (values[3])
            g.temperatureC = int(std::lround(*values[3]));
        out.append(g);
    }
    return out;
}

QList<GpuReading> GpuStatsParser::parseRocmSmi(QByteArrayView output)
{
    // Older versions print warnings before the JSON: read from the first brace.
    const QByteArray text = output.toByteArray();
    const qsizetype brace = text.indexOf('{');
    if (brace < 0)
        return {};
    const QJsonObject root = QJsonDocument::fromJson(text.mid(brace)).object();
    static const QRegularExpression cardName(u"^card(\\d+)$"_s);
    QList<std::pair<int, QJsonObject>> cards;
    for (auto it = root.begin(); it != root.end(); ++it) {
        const QRegularExpressionMatch m = cardName.match(it.key());
        if (m.hasMatch() && it.value().isObject())
            cards.append({m.captured(1).toInt(), it.value().toObject()});
    }
    std::sort(cards.begin(), cards.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
    QList<GpuReading> out;
    for (const auto &[number, card] : std::as_const(cards)) {
        GpuReading g;
        g.index = number;
        g.vendor = u"amd"_s;
        if (const auto total = jsonNumber(card.value("VRAM Total Memory (B)"_L1)))
            g.memoryTotalMiB = qint64(std::llround(*total / MiB));
        if (const auto used = jsonNumber(card.value("VRAM Total Used Memory (B)"_L1)))
            g.memoryUsedMiB = qint64(std::llround(*used / MiB));
        if (const auto use = jsonNumber(card.value("GPU use (%)"_L1)))
            g.utilizationPercent = int(std::lround(*use));
        // The edge sensor where there is one, else the first temperature the card lists.
        std::optional<double> temperature = jsonNumber(card.value("Temperature (Sensor edge) (C)"_L1));
        for (auto it = card.begin(); !temperature && it != card.end(); ++it) {
            if (it.key().startsWith("Temperature"_L1) && it.key().endsWith("(C)"_L1))
                temperature = jsonNumber(it.value());
        }
        if (temperature)
            g.temperatureC = int(std::lround(*temperature));
        out.append(g);
    }
    return out;
}

} // namespace switchyard
