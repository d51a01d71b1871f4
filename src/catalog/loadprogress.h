#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QMetaType>
#include <QString>
#include <QStringList>

#include <optional>

namespace switchyard {

// How far a model's load has got, as its router's /models/sse says: llama.cpp sends
// "progress":{"stages":[...],"current":S,"value":0..1} with each "loading" status; and while it
// downloads a model (POST /models on the router: status "downloading"), "download_progress"
// events {"progress":{"<url>":{"done":D,"total":T}}}, then download_finished or download_failed.
struct LoadProgress
{
    std::optional<double> value;   // 0..1 of the load; nullopt before the router said
    QString stage;                 // the stage loading now ("text_model", ...)
    QStringList stages;            // every stage of the load, in order
    qint64 downloadDone = -1;      // bytes fetched so far over all of its files; -1: no download seen
    qint64 downloadTotal = -1;     // bytes to fetch; -1 when not known

    bool isEmpty() const { return !value && downloadDone < 0; }
    bool operator==(const LoadProgress &o) const
    {
        return value == o.value && stage == o.stage && stages == o.stages && downloadDone == o.downloadDone
               && downloadTotal == o.downloadTotal;
    }
    bool operator!=(const LoadProgress &o) const { return !(*this == o); }

    // As /admin/hosts carries it with a loading model:
    // {"value":0.4,"stage":"text_model","stages":["text_model"],"download":{"done":D,"total":T}},
    // each part only when known.
    QJsonObject toJson() const;
    // Parts that are missing or of the wrong type are left unknown.
    static LoadProgress fromJson(const QJsonObject &o);
};

// One /models/sse event as it bears on a load.
struct ProgressEvent
{
    enum class Kind {
        Load,       // a "loading" status with its progress: value and stage
        Download,   // download_progress: bytes done and total
        Ended,      // any other status (loaded, unloaded, sleeping), a download finished or failed
    };
    QString model;   // the model's key on its engine
    Kind kind = Kind::Ended;
    LoadProgress progress;   // what the event says (Load: value, stages; Download: bytes)

    // Folds the event into what was known of the load. True when that changes what a person
    // sees (a whole percent, the stage, a tenth of a percent of a download), so the many
    // download events do not each redraw the window.
    bool applyTo(LoadProgress *known) const;
};

// Reads one /models/sse data payload (the JSON after "data: "). nullopt for anything that says
// nothing about a load: another event, a "loading" status without progress, malformed JSON or
// a progress of the wrong shape (a value that is not a number in 0..1, a download without a
// number of bytes done). Pure, so it is fuzzed.
std::optional<ProgressEvent> parseProgressEvent(const QByteArray &dataJson);

} // namespace switchyard

Q_DECLARE_METATYPE(switchyard::LoadProgress)
