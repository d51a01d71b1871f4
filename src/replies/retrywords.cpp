#include "replies/retrywords.h"

#include <QRegularExpression>

namespace switchyard::RetryWords {

bool present(const QString &text)
{
    static const QRegularExpression patterns[] = {
        QRegularExpression(QStringLiteral("429|500|502|503|504|524")),
        QRegularExpression(QStringLiteral("rate increased too quickly|rate.?limit|too many requests"),
                           QRegularExpression::CaseInsensitiveOption),
        QRegularExpression(QStringLiteral("overloaded|service.?unavailable|internal.?(server.?)?error|server.?error|provider returned error"),
                           QRegularExpression::CaseInsensitiveOption),
        QRegularExpression(QStringLiteral("terminated|fetch failed|failed to fetch|network.?error|upstream connect|connection "
                                          "(error|refused|lost)|socket (connection was closed|hang up)|reset before headers|"
                                          "getaddrinfo|enotfound|eai_again|econnrefused|econnreset|etimedout"),
                           QRegularExpression::CaseInsensitiveOption),
        QRegularExpression(QStringLiteral("^timeout$|\\b(request|response|connection|network|stream|read) (timeout|timed out|time out)\\b"),
                           QRegularExpression::CaseInsensitiveOption),
        QRegularExpression(QStringLiteral("try (your request )?again|retry your request|resource.?exhausted|(currently|temporarily) at capacity"),
                           QRegularExpression::CaseInsensitiveOption),
    };
    for (const QRegularExpression &p : patterns) {
        if (p.match(text).hasMatch())
            return true;
    }
    return false;
}

bool presentInStream(const QString &text)
{
    static const QRegularExpression inStream(QStringLiteral("unavailable|exhausted|too_many_requests"),
                                             QRegularExpression::CaseInsensitiveOption);
    return present(text) || inStream.match(text).hasMatch();
}

} // namespace switchyard::RetryWords
