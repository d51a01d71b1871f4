#include "relay/errorrewrite.h"

#include "replies/clientreplies.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

namespace switchyard::ErrorRewrite {

using namespace Qt::StringLiterals;

namespace {

RewrittenError rewrite(const ClientReply &reply)
{
    return {reply.status, reply.body(ApiShape::Anthropic)};
}

} // namespace

std::optional<RewrittenError> forAnthropic(int status, const QByteArray &upstreamBody)
{
    if (status < 400 || upstreamBody.size() > 1024 * 1024)
        return std::nullopt;
    const QJsonObject root = QJsonDocument::fromJson(upstreamBody).object();
    const QJsonObject error = root.value("error"_L1).toObject();
    const QString message = error.value("message"_L1).toString(QString::fromUtf8(upstreamBody.left(2000)));
    const QString type = error.value("type"_L1).toString();

    if (message.contains("System message must be at the beginning"_L1))
        return rewrite(ClientReplies::systemMessageNotFirst(message));

    if (type == "exceed_context_size_error"_L1 || message.contains("exceeds the available context size"_L1)) {
        // Counts from the upstream are only trusted when they are plausible token counts.
        auto count = [&error](QLatin1StringView name) -> qint64 {
            const double v = error.value(name).toDouble(-1);
            return v >= 0 && v < 1e12 ? qint64(v) : -1;
        };
        qint64 prompt = count("n_prompt_tokens"_L1);
        qint64 context = count("n_ctx"_L1);
        if (prompt < 0 || context < 0) {
            static const QRegularExpression words(u"\\((\\d+) tokens\\) exceeds the available context size \\((\\d+) tokens\\)"_s);
            const auto m = words.match(message);
            bool okPrompt = false;
            bool okContext = false;
            if (m.hasMatch()) {
                prompt = m.captured(1).toLongLong(&okPrompt);
                context = m.captured(2).toLongLong(&okContext);
            }
            if (!okPrompt || !okContext)
                prompt = context = -1;
        }
        if (prompt >= 0 && context >= 0)
            return rewrite(ClientReplies::promptTooLong(prompt, context));
        return rewrite(ClientReplies::promptTooLong(message));
    }
    return std::nullopt;
}

} // namespace switchyard::ErrorRewrite
