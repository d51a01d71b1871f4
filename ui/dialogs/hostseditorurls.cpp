#include "dialogs/hostseditorurls.h"

#include "config/engineurl.h"
#include "config/hostseditormodel.h"

#include <QStringList>
#include <QUrl>

#include <algorithm>
#include <optional>

namespace switchyard {

using namespace Qt::StringLiterals;

namespace {

std::optional<QUrl> typedUrl(const QString &text)
{
    QString why;
    return text.trimmed().isEmpty() ? std::nullopt : EngineUrl::parse(EngineUrl::withScheme(text), &why);
}

} // namespace

QString HostsEditorUrls::suggestEngineUrl(const HostsEditorModel &model, const QString &host)
{
    // Every address in use: all engines', and the agents' (their port on that box is taken).
    QStringList taken;
    for (const auto &[name, urls] : model.engineUrls()) {
        taken.append(urls);
        taken.append(model.text(name, {}, u"agent"_s));
    }
    std::optional<QUrl> box;
    int lastPort = 0;
    for (const QString &engine : model.engines(host)) {
        const std::optional<QUrl> url = typedUrl(model.text(host, engine, u"url"_s));
        if (!url)
            continue;
        if (!box)
            box = url;
        if (url->host() == box->host())
            lastPort = std::max(lastPort, url->port(80));
    }
    if (!box) {
        // No engine says where the box is: its agent does, or a local host is this machine.
        if (const std::optional<QUrl> agent = typedUrl(model.text(host, {}, u"agent"_s)))
            box = agent;
        else if (model.text(host, {}, u"driver"_s) == u"local")
            box = QUrl(u"http://127.0.0.1"_s);
        else
            return {};
        lastPort = DefaultEnginePort - 1;
    }
    QUrl url;
    url.setScheme(u"http"_s);
    url.setHost(box->host());
    for (int port = lastPort + 1; port <= 65535; ++port) {
        url.setPort(port);
        const QString candidate = url.toString();
        if (std::none_of(taken.cbegin(), taken.cend(), [&](const QString &t) {
                return !t.trimmed().isEmpty() && EngineUrl::sameAddress(t, candidate);
            }))
            return candidate;
    }
    return {};
}

QList<ConfigError> HostsEditorUrls::sharedAddresses(const HostsEditorModel &model)
{
    struct Engine
    {
        QString host;
        QString name;
        QString url;
    };
    QList<Engine> engines;
    for (const QString &host : model.hosts()) {
        for (const QString &engine : model.engines(host))
            engines.append({host, engine, model.text(host, engine, u"url"_s)});
    }
    QList<ConfigError> errors;
    for (const Engine &e : std::as_const(engines)) {
        if (e.url.trimmed().isEmpty())
            continue;
        for (const Engine &other : std::as_const(engines)) {
            if ((other.host == e.host && other.name == e.name) || other.url.trimmed().isEmpty()
                || !EngineUrl::sameAddress(e.url, other.url))
                continue;
            ConfigError error;
            error.fieldPath = HostsEditorModel::fieldPath(e.host, e.name, u"url"_s);
            error.message = other.host == e.host
                                ? tr("the engine \"%1\" of this host already has this address: enter another")
                                      .arg(other.name)
                                : tr("the host \"%1\" already has this address (its engine \"%2\"): edit that "
                                     "host instead, or enter another address").arg(other.host, other.name);
            errors.append(error);
            break;
        }
    }
    return errors;
}

} // namespace switchyard
