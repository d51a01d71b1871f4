#pragma once

#include <QString>

#include <optional>

namespace switchyard::fake {

enum class FakeModelStatus { Unloaded, Loading, Loaded, Sleeping };

inline const char *fakeModelStatusName(FakeModelStatus status)
{
    switch (status) {
    case FakeModelStatus::Unloaded: return "unloaded";
    case FakeModelStatus::Loading: return "loading";
    case FakeModelStatus::Loaded: return "loaded";
    case FakeModelStatus::Sleeping: return "sleeping";
    }
    return "unloaded";
}

inline std::optional<FakeModelStatus> fakeModelStatusFromName(const QString &name)
{
    for (FakeModelStatus status : {FakeModelStatus::Unloaded, FakeModelStatus::Loading, FakeModelStatus::Loaded,
                                   FakeModelStatus::Sleeping}) {
        if (name == QLatin1StringView(fakeModelStatusName(status)))
            return status;
    }
    return std::nullopt;
}

// What the router knows about one model.
struct FakeModelState
{
    QString id;
    QString file;              // its GGUF: --model in args, model_path in /props
    int contextSize = 4096;
    bool fromPreset = false;   // its own n_ctx: "source":"preset" and --ctx-size in args
    bool failsToLoad = false;
    FakeModelStatus status = FakeModelStatus::Unloaded;
    bool failed = false;       // the last load failed
    int exitCode = 0;
    quint16 childPort = 0;     // the port its child server had; 0 before the first load

    bool isRunning() const { return status != FakeModelStatus::Unloaded; }
};

} // namespace switchyard::fake
