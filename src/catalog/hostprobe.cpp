#include "catalog/hostprobe.h"

#include "catalog/hostmodels.h"
#include "config/engineurl.h"
#include "upstream/upstreamexchange.h"
#include "upstream/upstreampool.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <memory>

namespace switchyard {

using namespace Qt::StringLiterals;

HostProbe::HostProbe(QObject *parent)
    : QObject(parent)
    , m_pool(new UpstreamPool(this))
{
}

HostProbe::~HostProbe() = default;

void HostProbe::start(const QString &url, const QString &apiKey)
{
    ++m_generation;
    m_result = Result();
    m_apiKey = apiKey.trimmed();
    m_running = true;
    QString why;
    const std::optional<QUrl> parsed = EngineUrl::parse(EngineUrl::withScheme(url), &why);
    if (!parsed) {
        // Reported from the event loop, as every other outcome is.
        const int generation = m_generation;
        QMetaObject::invokeMethod(this, [this, generation, why] {
            if (generation == m_generation)
                finish(why);
        }, Qt::QueuedConnection);
        return;
    }
    m_url = *parsed;
    get("/health", [this](const Answer &a) { onHealth(a); });
}

void HostProbe::get(const QByteArray &target, std::function<void(const Answer &)> next)
{
    UpstreamExchange::Request request;
    request.base = m_url;
    request.target = target;
    request.headers = {{"Accept", "application/json"}};
    if (!m_apiKey.isEmpty())
        request.headers.append({"Authorization", "Bearer " + m_apiKey.toUtf8()});
    request.connectTimeout = Timeout;
    request.inactivityTimeout = Timeout;
    auto *exchange = new UpstreamExchange(m_pool, request, this);
    auto body = std::make_shared<QByteArray>();
    const int generation = m_generation;
    connect(exchange, &UpstreamExchange::bodyData, this, [body](const QByteArray &d) { body->append(d); });
    connect(exchange, &UpstreamExchange::finished, this, [this, exchange, body, generation, next] {
        exchange->deleteLater();
        if (generation != m_generation)
            return;
        next(Answer{exchange->status(), *body, QString()});
    });
    connect(exchange, &UpstreamExchange::failed, this,
            [this, exchange, generation, next](UpstreamExchange::Failure failure, const QString &message) {
                exchange->deleteLater();
                if (generation != m_generation)
                    return;
                next(Answer{0, QByteArray(), failureWords(failure, message)});
            });
    exchange->start();
}

QString HostProbe::failureWords(UpstreamExchange::Failure failure, const QString &message)
{
    // The dialog speaks the user's language; the exchange's message is the English record.
    switch (failure) {
    case UpstreamExchange::Failure::Refused:
        return tr("the connection was refused (no server listens at that port, or a firewall says no)");
    case UpstreamExchange::Failure::HostNotFound:
        return tr("the host name does not resolve");
    case UpstreamExchange::Failure::ConnectTimeout:
        return tr("no connection within %1 s").arg(std::chrono::duration_cast<std::chrono::seconds>(Timeout).count());
    case UpstreamExchange::Failure::Inactivity:
        return tr("it sent nothing for %1 s").arg(std::chrono::duration_cast<std::chrono::seconds>(Timeout).count());
    case UpstreamExchange::Failure::Dropped:
        return tr("it closed the connection without answering");
    case UpstreamExchange::Failure::Truncated:
        return tr("it closed the connection in the middle of its answer");
    case UpstreamExchange::Failure::Protocol:
        return tr("what it answered is not HTTP");
    case UpstreamExchange::Failure::None:
        break;
    }
    return message.isEmpty() ? tr("no answer") : message;
}

void HostProbe::onHealth(const Answer &answer)
{
    if (answer.status == 0) {
        finish(tr("Nothing answers at %1: %2").arg(m_url.toString(), answer.failure));
        return;
    }
    m_result.reachable = true;
    if (answer.status == 401) {
        finish(m_apiKey.isEmpty() ? tr("The server wants an API key (it answered 401).")
                                  : tr("The server refused the API key (it answered 401)."));
        return;
    }
    if (answer.status == 503) {
        m_result.loading = true;   // a single-model server loading its model: /models still answers
    } else if (answer.status != 200) {
        finish(tr("%1 answers /health with HTTP %2: is it a llama.cpp server?").arg(m_url.toString()).arg(answer.status));
        return;
    }
    get("/models", [this](const Answer &a) { onModels(a, false); });
}

void HostProbe::onModels(const Answer &answer, bool v1)
{
    if (answer.status == 404 && !v1) {
        get("/v1/models", [this](const Answer &a) { onModels(a, true); });
        return;
    }
    if (answer.status == 401) {
        finish(m_apiKey.isEmpty() ? tr("The server wants an API key (it answered 401).")
                                  : tr("The server refused the API key (it answered 401)."));
        return;
    }
    if (answer.status != 200) {
        finish(answer.status == 0 ? tr("Its model list did not come: %1").arg(answer.failure)
                                  : tr("Its model list (GET %1) answered HTTP %2.")
                                        .arg(v1 ? u"/v1/models"_s : u"/models"_s).arg(answer.status));
        return;
    }
    QString why;
    const std::optional<QList<ModelEntry>> models = parseModelList(answer.body, &why);
    if (!models) {
        finish(tr("Its model list is not what llama.cpp sends: %1").arg(why));
        return;
    }
    bool statusObjects = false;
    for (const ModelEntry &entry : *models) {
        Model m;
        m.key = entry.key;
        m.status = entry.status;
        m.context = entry.contextSize();
        if (entry.raw.value("status"_L1).isObject())
            statusObjects = true;
        m_result.models.append(m);
    }
    // A router gives each model a status object; /props says so as well, below.
    m_result.kind = statusObjects ? Kind::Router : Kind::SingleModel;
    get("/props", [this](const Answer &a) { onProps(a); });
}

void HostProbe::onProps(const Answer &answer)
{
    // /props is extra: the role and the build. Without it the model list has said enough.
    if (answer.status == 200) {
        const QJsonObject props = QJsonDocument::fromJson(answer.body).object();
        m_result.build = props.value("build_info"_L1).toString();
        if (props.value("role"_L1).toString() == "router"_L1) {
            m_result.kind = Kind::Router;
        } else if (!props.isEmpty()) {
            m_result.kind = Kind::SingleModel;
            const QJsonValue n = props.value("default_generation_settings"_L1).toObject().value("n_ctx"_L1);
            if (n.isDouble() && n.toDouble() > 0) {
                for (Model &m : m_result.models) {
                    if (!m.context)
                        m.context = qint64(n.toDouble());
                }
            }
        }
    }
    if (m_result.models.isEmpty() && m_result.kind == Kind::SingleModel)
        finish(tr("It answers, but lists no model."));
    else
        finish();
}

void HostProbe::finish(const QString &error)
{
    m_result.error = error;
    m_running = false;
    emit finished();
}

} // namespace switchyard
