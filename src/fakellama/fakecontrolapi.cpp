#include "fakecontrolapi.h"

#include "fakeerrors.h"
#include "fakehttprequest.h"
#include "fakellamaserver.h"

#include <QJsonArray>
#include <QJsonDocument>

using namespace Qt::StringLiterals;

namespace switchyard::fake {

FakeControlApi::FakeControlApi(FakeLlamaServer &server)
    : m_server(server)
{
}

FakeControlApi::Answer FakeControlApi::answer(const FakeHttpRequest &request)
{
    if (request.path == "/__fake/requests" && request.method == "GET")
        return {200, m_server.requestsJson(request.queryItem(u"since"_s).toLongLong())};
    if (request.path == "/__fake/reset" && request.method == "POST") {
        m_server.clearReceived();
        m_server.clearFailures();
        return {200, QByteArrayLiteral(R"({"success":true})")};
    }
    if (request.path == "/__fake/config" && request.method == "POST") {
        QJsonParseError error{};
        const QJsonDocument doc = QJsonDocument::fromJson(request.body, &error);
        const QString problem = doc.isObject() ? applyConfig(doc.object()) : u"the body must be a JSON object"_s;
        if (!problem.isEmpty())
            return {400, fakeerrors::invalidRequest(problem)};
        return {200, QByteArrayLiteral(R"({"success":true})")};
    }
    return {404, fakeerrors::notFound()};
}

QString FakeControlApi::applyConfig(const QJsonObject &config)
{
    // Refuse a typo before changing anything.
    static const QStringList knobs = {u"tokens_per_s"_s, u"load_ms"_s, u"unload_ms"_s, u"prefill_ms"_s,
                                      u"ping_ms"_s, u"max_models"_s, u"autoload"_s, u"reject_late_system"_s,
                                      u"max_reply_tokens"_s, u"fail_next"_s, u"model_status"_s, u"fail_load"_s};
    for (const QString &key : config.keys()) {
        if (!knobs.contains(key))
            return u"unknown knob '%1'"_s.arg(key);
    }
    auto milliseconds = [](const QJsonValue &v) { return std::chrono::milliseconds(qMax(0, v.toInt())); };
    for (auto it = config.begin(); it != config.end(); ++it) {
        const QString key = it.key();
        const QJsonValue value = it.value();
        if (key == u"tokens_per_s") {
            m_server.setTokensPerSecond(value.toDouble());
        } else if (key == u"load_ms") {
            m_server.setLoadDelay(milliseconds(value));
        } else if (key == u"unload_ms") {
            m_server.setUnloadDelay(milliseconds(value));
        } else if (key == u"prefill_ms") {
            m_server.setPrefillDelay(milliseconds(value));
        } else if (key == u"ping_ms") {
            m_server.setPingInterval(milliseconds(value));
        } else if (key == u"max_models") {
            m_server.setMaxModels(value.toInt());
        } else if (key == u"autoload") {
            m_server.setAutoload(value.toBool());
        } else if (key == u"reject_late_system") {
            m_server.setRejectLateSystem(value.toBool());
        } else if (key == u"max_reply_tokens") {
            m_server.setMaxReplyTokens(value.toInt());
        } else if (key == u"fail_next") {
            const QJsonObject f = value.toObject();
            const std::optional<FakeFailure::Mode> mode = FakeFailure::modeFromName(f.value(u"mode"_s).toString());
            if (!mode)
                return u"fail_next.mode must be one of drop, stall, status, crash, error, garbage"_s;
            FakeFailure failure;
            failure.mode = *mode;
            failure.status = f.value(u"status"_s).toInt(500);
            const QJsonValue body = f.value(u"body"_s);
            if (body.isString())
                failure.body = body.toString().toUtf8();
            else if (body.isObject())
                failure.body = QJsonDocument(body.toObject()).toJson(QJsonDocument::Compact);
            else if (body.isArray())
                failure.body = QJsonDocument(body.toArray()).toJson(QJsonDocument::Compact);
            failure.afterEvents = f.value(u"after_events"_s).toInt(0);
            failure.path = f.value(u"path"_s).toString().toUtf8();
            m_server.failNextRequests(f.value(u"count"_s).toInt(1), failure);
        } else if (key == u"model_status") {
            const QJsonObject statuses = value.toObject();
            for (auto s = statuses.begin(); s != statuses.end(); ++s) {
                const std::optional<FakeModelStatus> status = fakeModelStatusFromName(s.value().toString());
                if (!status || !m_server.hasModel(s.key()))
                    return u"model_status: bad entry '%1'"_s.arg(s.key());
                m_server.setModelStatus(s.key(), *status);
            }
        } else if (key == u"fail_load") {
            const QJsonObject fails = value.toObject();
            for (auto f = fails.begin(); f != fails.end(); ++f) {
                if (!m_server.hasModel(f.key()))
                    return u"fail_load: unknown model '%1'"_s.arg(f.key());
                m_server.setFailLoad(f.key(), f.value().toBool());
            }
        } else {
            return u"unknown knob '%1'"_s.arg(key);
        }
    }
    return {};
}

} // namespace switchyard::fake
