#pragma once

#include "fakemodelstate.h"
#include "fakeoptions.h"

#include <QObject>
#include <QTimer>

#include <chrono>
#include <map>
#include <memory>

namespace switchyard::fake {

// The router's models and their state machine:
//   unloaded → loading → loaded (or → unloaded, failed, exit_code 1)
//   loaded/sleeping → unloaded (unload, or LRU eviction beyond maxModels)
// Every change is announced as a /models/sse payload, in the real order.
class FakeModelRegistry final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FakeModelRegistry)

public:
    enum class LoadResult { Started, AlreadyRunning, NotFound, LimitReached };
    enum class UnloadResult { Started, NotRunning, NotFound };

    explicit FakeModelRegistry(const FakeOptions &options, QObject *parent = nullptr);
    ~FakeModelRegistry() override;

    bool contains(const QString &id) const;
    const FakeModelState *model(const QString &id) const;
    QList<const FakeModelState *> models() const; // sorted by id, as llama.cpp lists them

    LoadResult load(const QString &id);
    UnloadResult unload(const QString &id);
    void wake(const QString &id); // a request for a sleeping model
    void markUsed(const QString &id);

    // Test knob: puts a model in a state now, cancelling whatever it was doing.
    void setStatus(const QString &id, FakeModelStatus status);
    void setFailsToLoad(const QString &id, bool fails);
    void setLoadDelay(std::chrono::milliseconds delay) { m_loadDelay = delay; }
    void setUnloadDelay(std::chrono::milliseconds delay) { m_unloadDelay = delay; }
    void setMaxModels(int count) { m_maxModels = count; }
    std::chrono::milliseconds loadDelay() const { return m_loadDelay; }
    int maxModels() const { return m_maxModels; }

    // Back to the start-up state without events: a restarted router.
    void reset();

signals:
    void event(const QByteArray &payload);      // one /models/sse data payload
    void modelReady(const QString &id);         // loaded (or woken): waiting requests may go
    void modelLoadFailed(const QString &id);    // waiting requests get a 500
    void modelStopped(const QString &id);       // its child is gone: running requests die

private:
    enum class Step { None, LoadHalfway, LoadDone, UnloadDone, WakeDone };

    struct Entry
    {
        FakeModelState state;
        std::unique_ptr<QTimer> timer;
        Step step = Step::None;
        quint64 lastUsed = 0;
    };

    Entry *entry(const QString &id);
    void schedule(Entry &entry, Step step, std::chrono::milliseconds delay);
    void onTimer(const QString &id);
    void finishLoad(Entry &entry);
    void stopNow(Entry &entry, int exitCode); // → unloaded with an event
    bool evictFor(const QString &id);
    void initEntries();

    FakeOptions m_options;
    std::map<QString, Entry> m_models;
    std::chrono::milliseconds m_loadDelay;
    std::chrono::milliseconds m_unloadDelay;
    int m_maxModels;
    quint64 m_useClock = 0;
    quint16 m_nextChildPort = 39100;
};

} // namespace switchyard::fake
