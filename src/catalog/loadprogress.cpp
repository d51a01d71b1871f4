#include "catalog/loadprogress.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>
#include <cmath>

namespace switchyard {

using namespace Qt::StringLiterals;

namespace {

// Bytes beyond any model (9 PB), where a double still holds every whole number.
constexpr qint64 MaxBytes = 9'000'000'000'000'000;

// A count of bytes: a whole, non-negative number (JSON numbers are doubles).
std::optional<qint64> byteCount(const QJsonValue &v)
{
    if (!v.isDouble())
        return std::nullopt;
    const double d = v.toDouble();
    if (!std::isfinite(d) || d < 0 || d > double(MaxBytes))
        return std::nullopt;
    return qint64(d);
}

std::optional<double> fraction(const QJsonValue &v)
{
    if (!v.isDouble())
        return std::nullopt;
    const double d = v.toDouble();
    if (!std::isfinite(d) || d < 0 || d > 1)
        return std::nullopt;
    return d;
}

QStringList stringList(const QJsonValue &v)
{
    QStringList out;
    for (const QJsonValue &s : v.toArray()) {
        if (s.isString())
            out.append(s.toString());
    }
    return out;
}

std::optional<ProgressEvent> loadEvent(const QString &model, const QJsonObject &data)
{
    ProgressEvent e;
    e.model = model;
    const QString status = data.value("status"_L1).toString();
    if (status.isEmpty() || status == "downloading"_L1)
        return std::nullopt;   // a download's figures come in download_progress events
    if (status != "loading"_L1) {
        e.kind = ProgressEvent::Kind::Ended;
        return e;
    }
    const QJsonObject progress = data.value("progress"_L1).toObject();
    const std::optional<double> value = fraction(progress.value("value"_L1));
    if (!value)
        return std::nullopt;   // "model_status" loading, or a progress we cannot read
    e.kind = ProgressEvent::Kind::Load;
    e.progress.value = value;
    e.progress.stage = progress.value("current"_L1).toString();
    e.progress.stages = stringList(progress.value("stages"_L1));
    return e;
}

// {"progress":{"<url>":{"done":D,"total":T}, ...}}: one entry per file (a split model, its
// projector), summed.
std::optional<ProgressEvent> downloadEvent(const QString &model, const QJsonObject &data)
{
    ProgressEvent e;
    e.model = model;
    e.kind = ProgressEvent::Kind::Download;
    const QJsonObject files = data.value("progress"_L1).toObject();
    qint64 done = 0;
    qint64 total = 0;
    bool anyFile = false;
    bool totalKnown = true;
    for (auto it = files.begin(); it != files.end(); ++it) {
        const QJsonObject file = it.value().toObject();
        const std::optional<qint64> fileDone = byteCount(file.value("done"_L1));
        if (!fileDone)
            continue;
        anyFile = true;
        done = std::min(done + *fileDone, MaxBytes);
        const std::optional<qint64> fileTotal = byteCount(file.value("total"_L1));
        if (fileTotal && *fileTotal > 0)
            total = std::min(total + *fileTotal, MaxBytes);
        else
            totalKnown = false;
    }
    if (!anyFile)
        return std::nullopt;
    e.progress.downloadDone = done;
    e.progress.downloadTotal = totalKnown ? total : -1;
    return e;
}

} // namespace

QJsonObject LoadProgress::toJson() const
{
    QJsonObject o;
    if (value) {
        o.insert("value"_L1, *value);
        if (!stage.isEmpty())
            o.insert("stage"_L1, stage);
        if (!stages.isEmpty())
            o.insert("stages"_L1, QJsonArray::fromStringList(stages));
    }
    if (downloadDone >= 0) {
        QJsonObject download{{"done"_L1, double(downloadDone)}};
        if (downloadTotal >= 0)
            download.insert("total"_L1, double(downloadTotal));
        o.insert("download"_L1, download);
    }
    return o;
}

LoadProgress LoadProgress::fromJson(const QJsonObject &o)
{
    LoadProgress p;
    p.value = fraction(o.value("value"_L1));
    if (p.value) {
        p.stage = o.value("stage"_L1).toString();
        p.stages = stringList(o.value("stages"_L1));
    }
    const QJsonObject download = o.value("download"_L1).toObject();
    if (const std::optional<qint64> done = byteCount(download.value("done"_L1))) {
        p.downloadDone = *done;
        p.downloadTotal = byteCount(download.value("total"_L1)).value_or(-1);
    }
    return p;
}

bool ProgressEvent::applyTo(LoadProgress *known) const
{
    const LoadProgress before = *known;
    switch (kind) {
    case Kind::Ended:
        *known = LoadProgress();
        return !before.isEmpty();
    case Kind::Load:
        known->value = progress.value;
        known->stage = progress.stage;
        known->stages = progress.stages;
        return !before.value || std::lround(*before.value * 100) != std::lround(*progress.value * 100)
               || before.stage != progress.stage || before.stages != progress.stages;
    case Kind::Download: {
        known->downloadDone = progress.downloadDone;
        known->downloadTotal = progress.downloadTotal;
        if (before.downloadDone < 0 || before.downloadTotal != progress.downloadTotal)
            return true;
        if (progress.downloadTotal <= 0)
            return before.downloadDone / 100'000'000 != progress.downloadDone / 100'000'000;   // per 0.1 GB
        const auto perMille = [this](qint64 done) { return std::floor(double(done) * 1000.0 / double(progress.downloadTotal)); };
        return perMille(before.downloadDone) != perMille(progress.downloadDone);
    }
    }
    return false;
}

std::optional<ProgressEvent> parseProgressEvent(const QByteArray &dataJson)
{
    const QJsonDocument doc = QJsonDocument::fromJson(dataJson);
    if (!doc.isObject())
        return std::nullopt;
    const QJsonObject o = doc.object();
    const QString model = o.value("model"_L1).toString();
    if (model.isEmpty() || model == "*"_L1)
        return std::nullopt;
    const QString event = o.value("event"_L1).toString();
    const QJsonObject data = o.value("data"_L1).toObject();
    if (event == "status_change"_L1 || event == "model_status"_L1)
        return loadEvent(model, data);
    if (event == "download_progress"_L1)
        return downloadEvent(model, data);
    if (event == "download_finished"_L1 || event == "download_failed"_L1)
        return ProgressEvent{model, ProgressEvent::Kind::Ended, {}};
    return std::nullopt;
}

} // namespace switchyard
