#pragma once

#include <QCoreApplication>
#include <QString>
#include <QUrl>

#include <optional>

namespace switchyard {

// The base URL of an engine or an agent, as a config file or --upstream gives it.
class EngineUrl final
{
    // The config's messages share one translation context, whichever class words them.
    Q_DECLARE_TR_FUNCTIONS(ConfigLoader)

public:
    // A plain http:// URL with a host and no query or fragment, its trailing '/' dropped
    // ("http://x:8080/" means "http://x:8080"); nullopt with *why set otherwise.
    static std::optional<QUrl> parse(const QString &text, QString *why);
    // An address as a person types it into the window ("gpu-3090.lan:8080", "127.0.0.1:18901"):
    // without a scheme, http:// is meant (issue 30). Config files stay strict.
    static QString withScheme(const QString &typed);
    // Whether two typed or configured addresses name the same server: http:// assumed, the host's
    // case, a trailing '/' and an explicit port 80 make no difference.
    static bool sameAddress(const QString &a, const QString &b);

    EngineUrl() = delete;
};

} // namespace switchyard
