#pragma once

#include "config/config.h"
#include "hosts/promptcacheusage.h"
#include "store/historyevent.h"
#include "store/savedslot.h"

#include <QDateTime>
#include <QHash>
#include <QList>
#include <QObject>
#include <QString>
#include <QUrl>

#include <chrono>
#include <functional>
#include <memory>

namespace switchyard {

class Catalog;
class Clock;
class HistoryStore;
class UpstreamPool;

// Prompt caches that survive a switch (issue 19, docs/PROMPT_CACHES.md). Before one of the
// host's engines is stopped, every slot that holds a prompt is saved through llama-server's slot
// API (POST /slots/{id}?action=save) into the engines' --slot-save-path, within the host's time
// budget; once that engine is back, the first request for a model restores that model's saved
// slots (action=restore) before it is forwarded, so llama.cpp's own prompt matching reuses them.
// Nothing here ever fails a switch or a request: a save that does not fit the budget is skipped,
// a restore that fails is dropped, each with a history event (the journal's line).
// The files stay on the box; which slot of which model is in which file is kept in the store
// (setIndex()), so a relay restart or an engine crash does not forget them (issue 31). Before a
// restore the keeper checks what it can: a file of its own folder that is missing or not the
// size it was saved with, or a model that is not the one saved (ModelIdentity), is never
// restored; the request is prefilled as usual and the history says why.
class PromptCacheKeeper final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(PromptCacheKeeper)

public:
    // One saved slot, as /admin/hosts lists it and the store keeps it.
    using Saved = SavedSlot;
    struct Restored
    {
        int slotCount = 0;
        qint64 tokens = 0;
        std::chrono::milliseconds took{0};
    };
    using Usage = PromptCacheUsage;
    using SavedFn = std::function<void()>;
    using RestoredFn = std::function<void(const Restored &)>;

    PromptCacheKeeper(const HostConfig &host, UpstreamPool *pool, const Catalog *catalog,
                      const Clock *clock = nullptr, QObject *parent = nullptr);
    ~PromptCacheKeeper() override;

    // Keep the index of saved slots in `store` (which must outlive this keeper): what it holds
    // for this host is read now, over the size budget the oldest go, and every change from now
    // on is written to it.
    void setIndex(HistoryStore *store);

    // `engine` is about to be stopped: save what its slots hold, then call then() (always once,
    // within the save budget and a little).
    void saveBeforeStop(const QString &engine, SavedFn then);
    // `engine` is up again: its saved slots wait for the first request of their model.
    void engineStarted(const QString &engine);
    // A request for `model` on `engine` is about to go upstream: restore that model's saved
    // slots first if they wait, then call then() (at once when nothing waits).
    void restoreBeforeForward(const QString &engine, const QString &model, RestoredFn then);

    const PromptCacheConfig &config() const { return m_config; }
    QList<Saved> saved() const;   // newest first
    qint64 savedBytes() const;
    Usage usage() const;
    // The file name a slot is saved under: readable, and valid for llama-server's
    // fs_validate_filename whatever the model is called.
    static QString fileName(const QString &engine, const QString &model, int slot);

Q_SIGNALS:
    void historyEvent(const switchyard::HistoryEvent &event);
    // A save was kept, dropped or read back from the index: usage() may say otherwise now.
    void savedChanged();

private:
    struct Reply
    {
        int status = 0;          // 0 = no HTTP answer (error says why)
        QByteArray body;
        QString error;
        bool timedOut = false;   // no answer within the call's timeout (else: the connection failed)
    };
    using ReplyFn = std::function<void(const Reply &)>;
    struct SaveRun;
    struct RestoreRun;
    struct Unusable
    {
        QString why;          // empty: the entry may be restored
        bool forget = false;  // and it never will be: forget it (and delete its file)
    };

    void call(const QString &engine, const QByteArray &method, const QByteArray &target, const QByteArray &body,
              std::chrono::milliseconds timeout, ReplyFn done);
    QByteArray slotBody(const QString &engine, const QString &model, const QString &filename) const;
    void listModels(const std::shared_ptr<SaveRun> &run);
    void nextModel(const std::shared_ptr<SaveRun> &run);
    void nextSave(const std::shared_ptr<SaveRun> &run);
    void finishSave(const std::shared_ptr<SaveRun> &run);
    void readModelsBeforeRestore(const std::shared_ptr<RestoreRun> &run);
    void nextRestore(const std::shared_ptr<RestoreRun> &run);
    Unusable unusable(const Saved &entry, const RestoreRun &run) const;
    void keep(const Saved &saved);
    void enforceSizeBudget();
    void setPending(Saved &saved, bool pending);
    void drop(const QString &key, bool deleteFile);
    std::chrono::milliseconds predictSave(const QString &model, qint64 tokens) const;
    std::chrono::milliseconds remaining(const SaveRun &run) const;
    void publish(HistoryEvent::Kind kind, HistoryEvent::CacheOutcome outcome, const QString &engine,
                 const QString &model, std::optional<std::chrono::milliseconds> took, const QString &detail);

    QString m_host;
    QString m_apiKey;
    QHash<QString, std::chrono::milliseconds> m_startTimeouts;   // by engine
    PromptCacheConfig m_config;
    bool m_filesHere;   // driver "local": the cache folder is on this machine
    UpstreamPool *m_pool;
    const Catalog *m_catalog;   // may be null: an agent's box
    QHash<QString, QUrl> m_configuredUrls;
    const Clock *m_clock;
    HistoryStore *m_index = nullptr;          // where m_saved is kept across restarts; may be none
    QHash<QString, Saved> m_saved;            // by Saved::key(); pending: restore before its model's next request
    QHash<QString, std::shared_ptr<RestoreRun>> m_restoring;   // by engine/model
    // What saves have cost so far: for predicting whether the next one fits the budget.
    QHash<QString, double> m_bytesPerToken;   // by model
    double m_bytesPerMs = 0;                  // 0 = nothing measured yet
};

} // namespace switchyard
