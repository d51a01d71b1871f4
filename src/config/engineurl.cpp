#include "config/engineurl.h"

namespace switchyard {

QString EngineUrl::withScheme(const QString &typed)
{
    const QString text = typed.trimmed();
    if (text.isEmpty() || text.contains(QLatin1String("://")))
        return text;
    return QLatin1String("http://") + text;
}

bool EngineUrl::sameAddress(const QString &a, const QString &b)
{
    QString why;
    const std::optional<QUrl> first = parse(withScheme(a), &why);
    const std::optional<QUrl> second = parse(withScheme(b), &why);
    if (!first || !second)
        return withScheme(a) == withScheme(b);
    // QUrl keeps the host in lower case already.
    return first->host() == second->host() && first->port(80) == second->port(80)
           && first->path() == second->path();
}

std::optional<QUrl> EngineUrl::parse(const QString &text, QString *why)
{
    if (text.trimmed().isEmpty()) {
        *why = tr("must not be empty");
        return std::nullopt;
    }
    QUrl url(text, QUrl::StrictMode);
    if (!url.isValid()) {
        *why = tr("not a valid URL: \"%1\"").arg(text);
        return std::nullopt;
    }
    // The relay talks plain HTTP to engines and agents: refused here, an https:// URL
    // would fail on every request with a garbled answer instead.
    if (url.scheme() == u"https") {
        *why = tr("https:// is not supported for engines and agents (the relay speaks plain HTTP to them): "
                  "use http://, or terminate TLS on the box, got \"%1\"").arg(text);
        return std::nullopt;
    }
    if (url.scheme() != u"http") {
        *why = tr("expected an http:// URL, got \"%1\"").arg(text);
        return std::nullopt;
    }
    if (url.host().isEmpty()) {
        *why = tr("the URL has no host: \"%1\"").arg(text);
        return std::nullopt;
    }
    if (url.hasQuery() || url.hasFragment()) {
        *why = tr("the URL must not have a query or fragment: \"%1\"").arg(text);
        return std::nullopt;
    }
    // A base URL: request paths are appended to it, so "http://x:8080/" means "http://x:8080".
    QString path = url.path();
    while (path.endsWith(u'/'))
        path.chop(1);
    url.setPath(path);
    return url;
}

} // namespace switchyard
