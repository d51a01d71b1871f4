#include "fakemodelregistry.h"

#include "fakemodelsjson.h"

using namespace std::chrono_literals;

namespace switchyard::fake {

namespace {
// Waking a sleeping child is quick but not instant.
constexpr std::chrono::milliseconds kWakeDelay{10};
} // namespace

FakeModelRegistry::FakeModelRegistry(const FakeOptions &options, QObject *parent)
    : QObject(parent)
    , m_options(options)
    , m_loadDelay(options.loadDelay)
    , m_unloadDelay(options.unloadDelay)
    , m_maxModels(options.maxModels)
{
    initEntries();
}

FakeModelRegistry::~FakeModelRegistry() = default;

void FakeModelRegistry::initEntries()
{
    m_models.clear();
    for (const QString &id : m_options.models) {
        Entry &e = m_models[id];
        e.state.id = id;
        e.state.file = m_options.modelFiles.value(id, QStringLiteral("/srv/models/") + id + QStringLiteral(".gguf"));
        e.state.fromPreset = m_options.modelContext.contains(id);
        e.state.contextSize = m_options.modelContext.value(id, m_options.contextSize);
        e.state.failsToLoad = m_options.failLoad.contains(id);
        if (m_options.loaded.contains(id)) {
            e.state.status = FakeModelStatus::Loaded;
            e.state.childPort = m_nextChildPort++;
            e.lastUsed = ++m_useClock;
        }
    }
}

bool FakeModelRegistry::contains(const QString &id) const
{
    return m_models.find(id) != m_models.end();
}

const FakeModelState *FakeModelRegistry::model(const QString &id) const
{
    const auto it = m_models.find(id);
    return it == m_models.end() ? nullptr : &it->second.state;
}

QList<const FakeModelState *> FakeModelRegistry::models() const
{
    QList<const FakeModelState *> list;
    for (const auto &[id, e] : m_models)
        list.append(&e.state);
    return list;
}

FakeModelRegistry::Entry *FakeModelRegistry::entry(const QString &id)
{
    const auto it = m_models.find(id);
    return it == m_models.end() ? nullptr : &it->second;
}

FakeModelRegistry::LoadResult FakeModelRegistry::load(const QString &id)
{
    Entry *e = entry(id);
    if (!e)
        return LoadResult::NotFound;
    if (e->state.isRunning())
        return LoadResult::AlreadyRunning;
    if (!evictFor(id))
        return LoadResult::LimitReached;

    e->state.status = FakeModelStatus::Loading;
    e->state.failed = false;
    e->state.exitCode = 0;
    e->state.childPort = m_nextChildPort++;
    emit event(fakemodelsjson::loadingStartedEvent(id));
    emit event(fakemodelsjson::loadingProgressEvent(id, 0.0));
    schedule(*e, Step::LoadHalfway, m_loadDelay / 2);
    return LoadResult::Started;
}

FakeModelRegistry::UnloadResult FakeModelRegistry::unload(const QString &id)
{
    Entry *e = entry(id);
    if (!e)
        return UnloadResult::NotFound;
    if (!e->state.isRunning())
        return UnloadResult::NotRunning;
    // The child keeps its state until it has exited, as in transcript 28.
    schedule(*e, Step::UnloadDone, m_unloadDelay);
    return UnloadResult::Started;
}

void FakeModelRegistry::wake(const QString &id)
{
    Entry *e = entry(id);
    if (e && e->state.status == FakeModelStatus::Sleeping && e->step == Step::None)
        schedule(*e, Step::WakeDone, kWakeDelay);
}

void FakeModelRegistry::markUsed(const QString &id)
{
    if (Entry *e = entry(id))
        e->lastUsed = ++m_useClock;
}

void FakeModelRegistry::setStatus(const QString &id, FakeModelStatus status)
{
    Entry *e = entry(id);
    if (!e)
        return;
    if (e->timer)
        e->timer->stop();
    e->step = Step::None;

    switch (status) {
    case FakeModelStatus::Unloaded:
        if (e->state.isRunning())
            stopNow(*e, 0);
        break;
    case FakeModelStatus::Loading:
        e->state.status = FakeModelStatus::Loading;
        e->state.failed = false;
        if (e->state.childPort == 0)
            e->state.childPort = m_nextChildPort++;
        emit event(fakemodelsjson::loadingStartedEvent(id));
        emit event(fakemodelsjson::loadingProgressEvent(id, 0.0));
        break;
    case FakeModelStatus::Loaded:
        e->state.status = FakeModelStatus::Loaded;
        e->state.failed = false;
        if (e->state.childPort == 0)
            e->state.childPort = m_nextChildPort++;
        e->lastUsed = ++m_useClock;
        emit event(fakemodelsjson::loadedEvent(e->state));
        emit modelReady(id);
        break;
    case FakeModelStatus::Sleeping:
        e->state.status = FakeModelStatus::Sleeping;
        emit event(fakemodelsjson::sleepingEvent(id));
        break;
    }
}

void FakeModelRegistry::setFailsToLoad(const QString &id, bool fails)
{
    if (Entry *e = entry(id))
        e->state.failsToLoad = fails;
}

void FakeModelRegistry::reset()
{
    initEntries();
}

void FakeModelRegistry::schedule(Entry &e, Step step, std::chrono::milliseconds delay)
{
    if (!e.timer) {
        e.timer = std::make_unique<QTimer>();
        e.timer->setSingleShot(true);
        const QString id = e.state.id;
        connect(e.timer.get(), &QTimer::timeout, this, [this, id] { onTimer(id); });
    }
    e.step = step;
    e.timer->start(std::max(delay, 0ms));
}

void FakeModelRegistry::onTimer(const QString &id)
{
    Entry *e = entry(id);
    if (!e)
        return;
    const Step step = std::exchange(e->step, Step::None);
    switch (step) {
    case Step::None:
        break;
    case Step::LoadHalfway:
        // A model that will fail never gets past its first progress event (transcript 50).
        if (!e->state.failsToLoad)
            emit event(fakemodelsjson::loadingProgressEvent(id, 0.5));
        schedule(*e, Step::LoadDone, m_loadDelay - m_loadDelay / 2);
        break;
    case Step::LoadDone:
        finishLoad(*e);
        break;
    case Step::UnloadDone:
        stopNow(*e, 0);
        break;
    case Step::WakeDone:
        e->state.status = FakeModelStatus::Loaded;
        e->lastUsed = ++m_useClock;
        emit event(fakemodelsjson::loadedEvent(e->state));
        emit modelReady(id);
        break;
    }
}

void FakeModelRegistry::finishLoad(Entry &e)
{
    const QString id = e.state.id;
    if (e.state.failsToLoad) {
        e.state.status = FakeModelStatus::Unloaded;
        e.state.failed = true;
        e.state.exitCode = 1;
        emit event(fakemodelsjson::unloadedEvent(id, 1));
        emit modelLoadFailed(id);
        return;
    }
    emit event(fakemodelsjson::loadingProgressEvent(id, 1.0));
    e.state.status = FakeModelStatus::Loaded;
    e.lastUsed = ++m_useClock;
    emit event(fakemodelsjson::loadedEvent(e.state));
    emit modelReady(id);
}

void FakeModelRegistry::stopNow(Entry &e, int exitCode)
{
    const QString id = e.state.id;
    const bool wasLoading = e.state.status == FakeModelStatus::Loading;
    if (e.timer)
        e.timer->stop();
    e.step = Step::None;
    e.state.status = FakeModelStatus::Unloaded;
    e.state.exitCode = exitCode;
    emit event(fakemodelsjson::unloadedEvent(id, exitCode));
    emit modelStopped(id);
    if (wasLoading)
        emit modelLoadFailed(id);
}

bool FakeModelRegistry::evictFor(const QString &id)
{
    if (m_maxModels <= 0)
        return true;
    int running = 0;
    for (const auto &[otherId, e] : m_models) {
        if (otherId != id && e.state.isRunning())
            ++running;
    }
    while (running >= m_maxModels) {
        Entry *oldest = nullptr;
        for (auto &[otherId, e] : m_models) {
            const bool evictable =
                e.state.status == FakeModelStatus::Loaded || e.state.status == FakeModelStatus::Sleeping;
            if (otherId != id && evictable && (!oldest || e.lastUsed < oldest->lastUsed))
                oldest = &e;
        }
        if (!oldest)
            return false; // everything else is still loading
        stopNow(*oldest, 0);
        --running;
    }
    return true;
}

} // namespace switchyard::fake
