#pragma once

#include "upstream/upstreamexchange.h"

#include <QList>
#include <QObject>
#include <QString>
#include <QUrl>

#include <chrono>
#include <functional>
#include <optional>

namespace switchyard {

class UpstreamPool;

// What a GPU box answers before it is added to the config (the desktop's "Add a GPU box"):
// whether anything answers at the URL, whether it is a llama.cpp router or a single-model
// server, its models and their context sizes. Asks GET /health, /models (or /v1/models) and
// /props, one after the other, as LLAMA_ROUTER_API.md describes them.
class HostProbe final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HostProbe)

public:
    enum class Kind { Unknown, Router, SingleModel };

    struct Model
    {
        QString key;
        QString status;                  // unloaded | loading | loaded | sleeping | ...
        std::optional<qint64> context;   // tokens, when the server says (or its args do)
    };

    struct Result
    {
        bool reachable = false;   // something answered HTTP at the URL
        QString error;            // what went wrong, for the user; empty when it is usable
        Kind kind = Kind::Unknown;
        QString build;            // build_info from /props
        bool loading = false;     // a single-model server still loading its model (503)
        QList<Model> models;

        bool ok() const { return error.isEmpty(); }
    };

    explicit HostProbe(QObject *parent = nullptr);
    ~HostProbe() override;

    // Starts a probe of url (an engine's base URL as the config takes it), sending apiKey as a
    // bearer token when set; a probe running already is dropped. finished() follows, always.
    void start(const QString &url, const QString &apiKey);
    bool isRunning() const { return m_running; }
    const Result &result() const { return m_result; }

    static constexpr std::chrono::milliseconds Timeout{std::chrono::seconds(5)};

Q_SIGNALS:
    void finished();

private:
    struct Answer
    {
        int status = 0;          // 0: no HTTP answer
        QByteArray body;
        QString failure;         // why there was no answer
    };
    void get(const QByteArray &target, std::function<void(const Answer &)> next);
    void onHealth(const Answer &answer);
    void onModels(const Answer &answer, bool v1);
    void onProps(const Answer &answer);
    void finish(const QString &error = QString());
    static QString failureWords(UpstreamExchange::Failure failure, const QString &message);

    UpstreamPool *m_pool;
    QUrl m_url;
    QString m_apiKey;
    Result m_result;
    bool m_running = false;
    int m_generation = 0;   // answers of a dropped probe are ignored
};

} // namespace switchyard
