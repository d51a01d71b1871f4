#include "hosts/promptcachekeeper.h"

#include "catalog/catalog.h"
#include "catalog/hostmodels.h"
#include "common/clock.h"
#include "hosts/modelidentity.h"
#include "store/historystore.h"
#include "upstream/upstreamexchange.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTimer>
#include <QUrl>

#include <algorithm>

namespace switchyard {

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using std::chrono::milliseconds;
using Outcome = HistoryEvent::CacheOutcome;   // what the metrics count (never read from the detail)

namespace {

QString modelKey(const QString &engine, const QString &model)
{
    return engine + u'\n' + model;
}

QString slotKey(const QString &engine, const QString &model, int slot)   // as SavedSlot::key()
{
    return modelKey(engine, model) + u'\n' + QString::number(slot);
}

// Only [A-Za-z0-9_-]: model names hold '/', ':' and more that llama-server refuses in a file name.
QString cleaned(const QString &name)
{
    QString out;
    for (const QChar c : name)
        out += (c.isLetterOrNumber() && c.unicode() < 128) || c == u'-' || c == u'_' ? c : u'_';
    return out.left(60);
}

QString megabytes(qint64 bytes)
{
    return u"%1 MB"_s.arg(double(bytes) / (1024.0 * 1024.0), 0, 'f', 1);
}

QString seconds(milliseconds ms)
{
    return u"%1 s"_s.arg(double(ms.count()) / 1000.0, 0, 'f', 1);
}

QString replyError(const QByteArray &body, int status)
{
    const QString message = QJsonDocument::fromJson(body).object().value("error"_L1).toObject().value("message"_L1).toString();
    return message.isEmpty() ? u"HTTP %1"_s.arg(status) : message;
}

} // namespace

struct PromptCacheKeeper::SaveRun
{
    QString engine;
    std::chrono::steady_clock::time_point started;
    std::chrono::steady_clock::time_point deadline;
    SavedFn then;
    QStringList models;                  // still to list
    QHash<QString, QString> identities;  // by model: ModelIdentity::of() its /models entry
    struct Job { QString model; int slot; qint64 tokens; };
    QList<Job> jobs;                     // slots still to save
    bool done = false;
};

struct PromptCacheKeeper::RestoreRun
{
    QString engine;
    QString model;
    QList<Saved> entries;
    QList<RestoredFn> waiting;           // the requests held until the restore is over
    Restored restored;
    std::chrono::steady_clock::time_point started;
    std::optional<QString> identity;     // ModelIdentity::of() the model now; none: unknown
    QString modelsError;                 // why it is unknown
};

PromptCacheKeeper::PromptCacheKeeper(const HostConfig &host, UpstreamPool *pool, const Catalog *catalog,
                                     const Clock *clock, QObject *parent)
    : QObject(parent)
    , m_host(host.name)
    , m_apiKey(host.apiKey)
    , m_config(host.promptCache)
    , m_filesHere(host.driver == u"local")
    , m_pool(pool)
    , m_catalog(catalog)
    , m_clock(clock ? clock : &systemClock())
{
    for (const EngineConfig &e : host.engines) {
        m_startTimeouts.insert(e.name, e.startTimeout);
        m_configuredUrls.insert(e.name, e.url);
    }
    // llama-server refuses to start with a --slot-save-path that is no folder.
    if (m_filesHere && !m_config.dir.isEmpty())
        QDir().mkpath(m_config.dir);
}

PromptCacheKeeper::~PromptCacheKeeper() = default;

void PromptCacheKeeper::setIndex(HistoryStore *store)
{
    m_index = store;
    if (!store)
        return;
    const QHash<QString, Saved> here = std::exchange(m_saved, {});
    for (const Saved &s : store->savedSlots(m_host))
        m_saved.insert(s.key(), s);
    for (const Saved &s : here) {   // saved before the store was given: the newer word
        m_saved.insert(s.key(), s);
        store->keepSavedSlot(s);
    }
    enforceSizeBudget();   // the budget may have shrunk since
    emit savedChanged();
}

QString PromptCacheKeeper::fileName(const QString &engine, const QString &model, int slot)
{
    const QByteArray hash = QCryptographicHash::hash((engine + u'\n' + model).toUtf8(), QCryptographicHash::Sha1).toHex().left(8);
    return u"switchyard-%1-%2-%3-slot%4.bin"_s.arg(cleaned(engine), cleaned(model), QString::fromLatin1(hash)).arg(slot);
}

QList<PromptCacheKeeper::Saved> PromptCacheKeeper::saved() const
{
    QList<Saved> out = m_saved.values();
    std::sort(out.begin(), out.end(), [](const Saved &a, const Saved &b) { return a.savedAt > b.savedAt; });
    return out;
}

qint64 PromptCacheKeeper::savedBytes() const
{
    qint64 total = 0;
    for (const Saved &s : m_saved)
        total += s.bytes;
    return total;
}

PromptCacheKeeper::Usage PromptCacheKeeper::usage() const
{
    return Usage{int(m_saved.size()), savedBytes(), m_config.maxBytes};
}

QByteArray PromptCacheKeeper::slotBody(const QString &engine, const QString &model, const QString &filename) const
{
    Q_UNUSED(engine)
    // A router forwards slot actions by the body's model; a single-model server ignores it.
    const QJsonObject body{{"model"_L1, model}, {"filename"_L1, filename}};
    return QJsonDocument(body).toJson(QJsonDocument::Compact);
}

void PromptCacheKeeper::call(const QString &engine, const QByteArray &method, const QByteArray &target,
                             const QByteArray &body, milliseconds timeout, ReplyFn done)
{
    UpstreamExchange::Request request;
    // The catalog's address where there is one (the relay's); the configured one else (an agent's
    // box, which has no catalog).
    request.base = m_configuredUrls.value(engine);
    if (const Catalog::HostState *h = m_catalog ? m_catalog->host(m_host) : nullptr) {
        for (const Catalog::EngineModels &e : h->engines) {
            if (e.name == engine)
                request.base = e.url;
        }
    }
    request.method = method;
    request.target = target;
    request.body = body;
    if (!body.isEmpty())
        request.headers.append(qMakePair(QByteArray("Content-Type"), QByteArray("application/json")));
    if (!m_apiKey.isEmpty())
        request.headers.append(qMakePair(QByteArray("Authorization"), "Bearer " + m_apiKey.toUtf8()));
    request.connectTimeout = qMax(milliseconds(1), qMin(timeout, milliseconds(10s)));
    auto *exchange = new UpstreamExchange(m_pool, request, this);
    auto *timer = new QTimer(exchange);
    auto reply = std::make_shared<Reply>();
    auto over = std::make_shared<bool>(false);
    auto finish = [exchange, timer, reply, over, done](const QString &error) {
        if (std::exchange(*over, true))
            return;   // answered, failed or timed out already: done() runs once
        timer->stop();
        exchange->disconnect();
        exchange->abort();
        exchange->deleteLater();
        reply->error = error;
        if (!error.isEmpty())
            reply->status = 0;
        done(*reply);
    };
    connect(exchange, &UpstreamExchange::bodyData, this, [reply](const QByteArray &data) { reply->body += data; });
    connect(exchange, &UpstreamExchange::finished, this, [exchange, reply, finish] {
        reply->status = exchange->status();
        finish({});
    });
    connect(exchange, &UpstreamExchange::failed, this,
            [finish](UpstreamExchange::Failure, const QString &message) { finish(message); });
    timer->setSingleShot(true);
    connect(timer, &QTimer::timeout, this, [finish, reply, timeout] {
        reply->timedOut = true;
        finish(u"no answer within %1"_s.arg(seconds(timeout)));
    });
    timer->start(qMax(milliseconds(0), timeout));
    exchange->start();
}

// ---- saving ------------------------------------------------------------------------------------

milliseconds PromptCacheKeeper::remaining(const SaveRun &run) const
{
    return std::chrono::duration_cast<milliseconds>(run.deadline - m_clock->steadyNow());
}

milliseconds PromptCacheKeeper::predictSave(const QString &model, qint64 tokens) const
{
    const double perToken = m_bytesPerToken.value(model, 0);
    if (perToken <= 0 || m_bytesPerMs <= 0)
        return 0ms;   // nothing measured yet: the first save is tried, its deadline still holds
    return milliseconds(qint64(double(tokens) * perToken / m_bytesPerMs));
}

void PromptCacheKeeper::saveBeforeStop(const QString &engine, SavedFn then)
{
    auto run = std::make_shared<SaveRun>();
    run->engine = engine;
    run->started = m_clock->steadyNow();
    run->deadline = run->started + m_config.saveBudget;
    run->then = std::move(then);
    // Not restored while it ran: the next start of the engine makes it wait again.
    for (Saved &s : m_saved) {
        if (s.engine == engine)
            setPending(s, false);
    }
    listModels(run);
}

void PromptCacheKeeper::listModels(const std::shared_ptr<SaveRun> &run)
{
    call(run->engine, "GET", "/models", {}, remaining(*run), [this, run](const Reply &reply) {
        QString error;
        const std::optional<QList<ModelEntry>> models = reply.status == 200 ? parseModelList(reply.body, &error)
                                                                            : std::nullopt;
        if (models) {
            for (const ModelEntry &m : *models) {
                if (m.status == "loaded"_L1) {
                    run->models.append(m.key);
                    run->identities.insert(m.key, ModelIdentity::of(m.raw));
                }
            }
        }
        nextModel(run);
    });
}

void PromptCacheKeeper::nextModel(const std::shared_ptr<SaveRun> &run)
{
    if (run->models.isEmpty() || remaining(*run) <= 0ms) {
        finishSave(run);
        return;
    }
    const QString model = run->models.takeFirst();
    // autoload=false: asking must not load a model into the engine about to stop.
    // A single-model server ignores both parameters.
    const QByteArray target = "/slots?model=" + QUrl::toPercentEncoding(model) + "&autoload=false";
    call(run->engine, "GET", target, {}, remaining(*run), [this, run, model](const Reply &reply) {
        if (reply.status == 200) {
            for (const QJsonValue &v : QJsonDocument::fromJson(reply.body).array()) {
                const QJsonObject slot = v.toObject();
                const qint64 tokens = slot.value("n_prompt_tokens"_L1).toInteger();
                if (tokens > 0 && !slot.value("is_processing"_L1).toBool())
                    run->jobs.append({model, slot.value("id"_L1).toInt(), tokens});
            }
        }
        nextSave(run);
    });
}

void PromptCacheKeeper::nextSave(const std::shared_ptr<SaveRun> &run)
{
    if (run->jobs.isEmpty()) {
        nextModel(run);
        return;
    }
    const SaveRun::Job job = run->jobs.takeFirst();
    const milliseconds left = remaining(*run);
    const milliseconds predicted = predictSave(job.model, job.tokens);
    const QString what = u"slot %1, %2 tokens"_s.arg(job.slot).arg(job.tokens);
    if (left <= 0ms || predicted > left) {
        publish(HistoryEvent::Kind::CacheSave, Outcome::Skipped, run->engine, job.model, std::nullopt,
                left <= 0ms ? u"%1 not saved: the %2 budget is used up"_s.arg(what, seconds(m_config.saveBudget))
                            : u"%1 not saved: it would take ~%2, %3 of the %4 budget left"_s
                                  .arg(what, seconds(predicted), seconds(left), seconds(m_config.saveBudget)));
        nextSave(run);
        return;
    }
    const QString filename = fileName(run->engine, job.model, job.slot);
    // Overwritten from now on: the old save is gone whatever happens to this one.
    drop(slotKey(run->engine, job.model, job.slot), false);
    const auto started = m_clock->steadyNow();
    call(run->engine, "POST", "/slots/" + QByteArray::number(job.slot) + "?action=save",
         slotBody(run->engine, job.model, filename), left,
         [this, run, job, filename, what, started](const Reply &reply) {
             const QJsonObject answer = QJsonDocument::fromJson(reply.body).object();
             const milliseconds took = std::chrono::duration_cast<milliseconds>(m_clock->steadyNow() - started);
             if (reply.status != 200) {
                 // Cut off by the budget or refused: never restored, and not left half-written here.
                 drop(slotKey(run->engine, job.model, job.slot), false);
                 if (m_filesHere)
                     QFile::remove(QDir(m_config.dir).filePath(filename));
                 publish(HistoryEvent::Kind::CacheSave, Outcome::Skipped, run->engine, job.model, took,
                         u"%1 not saved: %2"_s.arg(what, reply.status ? replyError(reply.body, reply.status) : reply.error));
                 nextSave(run);
                 return;
             }
             Saved saved;
             saved.host = m_host;
             saved.engine = run->engine;
             saved.model = job.model;
             saved.slot = job.slot;
             saved.filename = filename;
             saved.tokens = answer.value("n_saved"_L1).toInteger(job.tokens);
             saved.bytes = answer.value("n_written"_L1).toInteger();
             saved.savedAt = m_clock->now();
             saved.took = took;
             saved.modelIdentity = run->identities.value(job.model);
             if (saved.tokens > 0 && saved.bytes > 0)
                 m_bytesPerToken.insert(job.model, double(saved.bytes) / double(saved.tokens));
             const double ms = qMax(1.0, answer.value("timings"_L1).toObject().value("save_ms"_L1).toDouble(double(took.count())));
             m_bytesPerMs = double(saved.bytes) / ms;
             publish(HistoryEvent::Kind::CacheSave, Outcome::Done, run->engine, job.model, took,
                     u"slot %1, %2 tokens, %3"_s.arg(job.slot).arg(saved.tokens).arg(megabytes(saved.bytes)));
             keep(saved);
             nextSave(run);
         });
}

void PromptCacheKeeper::finishSave(const std::shared_ptr<SaveRun> &run)
{
    if (run->done)
        return;
    run->done = true;
    const SavedFn then = std::move(run->then);
    if (then)
        then();
}

void PromptCacheKeeper::keep(const Saved &saved)
{
    m_saved.insert(saved.key(), saved);
    if (m_index)
        m_index->keepSavedSlot(saved);
    enforceSizeBudget();
    emit savedChanged();
}

// The size budget: the oldest saves go first, the newest one too if it alone is too big.
void PromptCacheKeeper::enforceSizeBudget()
{
    while (savedBytes() > m_config.maxBytes && !m_saved.isEmpty()) {
        auto oldest = m_saved.cbegin();
        for (auto it = m_saved.cbegin(); it != m_saved.cend(); ++it) {
            if (it->savedAt < oldest->savedAt)
                oldest = it;
        }
        publish(HistoryEvent::Kind::CacheSave, Outcome::Dropped, oldest->engine, oldest->model, std::nullopt,
                u"slot %1 dropped: the saves are over the %2 budget"_s.arg(oldest->slot).arg(megabytes(m_config.maxBytes)));
        drop(oldest.key(), true);
    }
}

void PromptCacheKeeper::setPending(Saved &saved, bool pending)
{
    if (saved.pending == pending)
        return;
    saved.pending = pending;
    if (m_index)
        m_index->keepSavedSlot(saved);
}

// Forgotten here and in the index together; the file goes too when it is in this machine's
// folder (an agent's box keeps it until the same slot is saved again: the names are fixed).
void PromptCacheKeeper::drop(const QString &key, bool deleteFile)
{
    const auto it = m_saved.constFind(key);
    if (it == m_saved.cend())
        return;
    const Saved gone = *it;
    m_saved.erase(it);
    if (m_index)
        m_index->forgetSavedSlot(gone);
    if (deleteFile && m_filesHere && !gone.filename.isEmpty())
        QFile::remove(QDir(m_config.dir).filePath(gone.filename));
    emit savedChanged();
}

// ---- restoring ---------------------------------------------------------------------------------

void PromptCacheKeeper::engineStarted(const QString &engine)
{
    for (Saved &s : m_saved) {
        if (s.engine == engine)
            setPending(s, true);
    }
}

void PromptCacheKeeper::restoreBeforeForward(const QString &engine, const QString &model, RestoredFn then)
{
    if (const auto running = m_restoring.value(modelKey(engine, model))) {
        running->waiting.append(std::move(then));
        return;
    }
    QList<Saved> entries;
    for (Saved &s : m_saved) {
        if (s.engine == engine && s.model == model && s.pending) {
            setPending(s, false);
            entries.append(s);
        }
    }
    if (entries.isEmpty()) {
        then({});
        return;
    }
    auto run = std::make_shared<RestoreRun>();
    run->engine = engine;
    run->model = model;
    run->entries = entries;
    run->waiting.append(std::move(then));
    run->started = m_clock->steadyNow();
    m_restoring.insert(modelKey(engine, model), run);
    readModelsBeforeRestore(run);
}

// What the engine serves under the model's name now, fresh: the catalog may still hold what
// it said before the engine restarted, and that is just when a model file may have changed.
void PromptCacheKeeper::readModelsBeforeRestore(const std::shared_ptr<RestoreRun> &run)
{
    call(run->engine, "GET", "/models", {}, 10s, [this, run](const Reply &reply) {
        QString error = reply.status == 0 ? reply.error : QString();
        const std::optional<QList<ModelEntry>> models =
            reply.status == 200 ? parseModelList(reply.body, &error) : std::nullopt;
        if (models) {
            for (const ModelEntry &m : *models) {
                if (m.key == run->model)
                    run->identity = ModelIdentity::of(m.raw);
            }
            if (!run->identity)
                error = u"the engine does not list %1"_s.arg(run->model);
        } else if (error.isEmpty()) {
            error = replyError(reply.body, reply.status);
        }
        run->modelsError = error;
        nextRestore(run);
    });
}

PromptCacheKeeper::Unusable PromptCacheKeeper::unusable(const Saved &entry, const RestoreRun &run) const
{
    if (m_filesHere) {
        const QFileInfo file(QDir(m_config.dir).filePath(entry.filename));
        if (!file.exists())
            return {u"its file %1 is missing"_s.arg(entry.filename), true};
        if (entry.bytes > 0 && file.size() != entry.bytes)
            return {u"its file %1 is %2 bytes, the save wrote %3 (truncated or overwritten)"_s
                        .arg(entry.filename).arg(file.size()).arg(entry.bytes), true};
    }
    if (!run.identity) {
        if (entry.modelIdentity.isEmpty())
            return {};
        return {u"cannot tell the engine still serves the model it was saved from: %1"_s.arg(run.modelsError), false};
    }
    const QString differs = ModelIdentity::mismatch(entry.modelIdentity, *run.identity);
    if (!differs.isEmpty())
        return {u"it was saved from another model (%1)"_s.arg(differs), true};
    return {};
}

void PromptCacheKeeper::nextRestore(const std::shared_ptr<RestoreRun> &run)
{
    if (run->entries.isEmpty()) {
        m_restoring.remove(modelKey(run->engine, run->model));
        run->restored.took = std::chrono::duration_cast<milliseconds>(m_clock->steadyNow() - run->started);
        const QList<RestoredFn> waiting = std::exchange(run->waiting, {});
        for (const RestoredFn &then : waiting)
            then(run->restored);
        return;
    }
    const Saved entry = run->entries.takeFirst();
    if (const Unusable bad = unusable(entry, *run); !bad.why.isEmpty()) {
        // Never loaded: the request is prefilled as if nothing had been saved.
        if (bad.forget)
            drop(entry.key(), true);
        publish(HistoryEvent::Kind::CacheRestore, Outcome::Skipped, run->engine, entry.model, std::nullopt,
                u"slot %1, %2 tokens not restored: %3"_s.arg(QString::number(entry.slot), QString::number(entry.tokens), bad.why));
        nextRestore(run);
        return;
    }
    const auto started = m_clock->steadyNow();
    // A router loads the model for the restore, as it would for the request.
    const milliseconds timeout = m_startTimeouts.value(run->engine, 120s);
    call(run->engine, "POST", "/slots/" + QByteArray::number(entry.slot) + "?action=restore",
         slotBody(run->engine, entry.model, entry.filename), timeout, [this, run, entry, started](const Reply &reply) {
             const milliseconds took = std::chrono::duration_cast<milliseconds>(m_clock->steadyNow() - started);
             const QString what = u"slot %1, %2 tokens"_s.arg(entry.slot).arg(entry.tokens);
             if (reply.status == 200) {
                 const QJsonObject answer = QJsonDocument::fromJson(reply.body).object();
                 const qint64 tokens = answer.value("n_restored"_L1).toInteger(entry.tokens);
                 run->restored.slotCount += 1;
                 run->restored.tokens += tokens;
                 publish(HistoryEvent::Kind::CacheRestore, Outcome::Done, run->engine, entry.model, took,
                         u"slot %1, %2 tokens, %3"_s.arg(entry.slot).arg(tokens)
                             .arg(megabytes(answer.value("n_read"_L1).toInteger(entry.bytes))));
             } else {
                 // The request goes on without it; a file the engine refused is of no more use.
                 // Nor is one it dropped the connection over: llama-server aborts on a slot file
                 // cut short (GGML_ASSERT), so trying it again at the next start would crash the
                 // engine again. Only a restore that was still running when the time ran out
                 // keeps its save.
                 const bool refused = reply.status != 0;
                 const bool lostEngine = !refused && !reply.timedOut;
                 if (refused || lostEngine)
                     drop(entry.key(), true);
                 QString why = refused ? replyError(reply.body, reply.status) : reply.error;
                 if (lostEngine)
                     why += u" (the engine gave no answer: the save is not tried again)"_s;
                 publish(HistoryEvent::Kind::CacheRestore, Outcome::Skipped, run->engine, entry.model, took,
                         u"%1 not restored: %2"_s.arg(what, why));
             }
             nextRestore(run);
         });
}

void PromptCacheKeeper::publish(HistoryEvent::Kind kind, HistoryEvent::CacheOutcome outcome, const QString &engine,
                                const QString &model, std::optional<milliseconds> took, const QString &detail)
{
    HistoryEvent e;
    e.kind = kind;
    e.cacheOutcome = outcome;
    e.at = m_clock->now();
    e.host = m_host;
    e.engine = engine;
    e.model = model;
    e.duration = took;
    e.detail = detail;
    emit historyEvent(e);
}

} // namespace switchyard
