#include "config/configloader.h"

#include "config/agentconfigreader.h"
#include "config/confignames.h"
#include "config/configreport.h"
#include "config/engineurl.h"
#include "config/jsonnode.h"
#include "config/relayconfigreader.h"

#include <QFile>
#include <QUrl>

#include <algorithm>

namespace switchyard {

using namespace Qt::StringLiterals;

namespace {

// QJsonParseError counts bytes; people count characters on a line.
void lineAndColumn(const QByteArray &json, qsizetype offset, int *line, int *column)
{
    *line = 1;
    *column = 1;
    const qsizetype end = std::min(offset, json.size());
    for (qsizetype i = json.startsWith("\xEF\xBB\xBF") ? 3 : 0; i < end; ++i) {
        const auto byte = static_cast<unsigned char>(json.at(i));
        if (byte == '\n') {
            ++*line;
            *column = 1;
        } else if ((byte & 0xC0) != 0x80) {   // not a UTF-8 continuation byte
            ++*column;
        }
    }
}

// The relay's and the agent's files are read alike: JSON first (an empty file, or a syntax error
// with its line and column), then the reader of that kind of file.
std::optional<JsonNode> readJson(const QByteArray &json, ConfigReport &report)
{
    if (json.trimmed().isEmpty()) {
        report.error(0, QString(), ConfigLoader::tr("the file is empty"));
        return std::nullopt;
    }
    QJsonParseError parseError;
    std::optional<JsonNode> root = JsonNode::parse(json, &parseError);
    if (!root) {
        int line = 0;
        int column = 0;
        lineAndColumn(json, parseError.offset, &line, &column);
        report.error(line, QString(), ConfigLoader::tr("JSON syntax error: %1").arg(parseError.errorString()), column);
    }
    return root;
}

template<typename Reader, typename Result, typename Parsed>
Result parseDocument(const QByteArray &json, const QString &fileName)
{
    ConfigReport report(fileName);
    Parsed config;
    if (const std::optional<JsonNode> root = readJson(json, report))
        Reader(report).read(*root, config);
    return report.result<Result>(config);
}

template<typename Result>
Result loadDocument(const QString &path, Result (*parse)(const QByteArray &, const QString &))
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        Result result;
        result.errors.append(ConfigError{path, 0, QString(),
                                         ConfigLoader::tr("cannot read the config file: %1").arg(file.errorString())});
        return result;
    }
    return parse(file.readAll(), path);
}

} // namespace

ConfigResult ConfigLoader::parse(const QByteArray &json, const QString &fileName)
{
    return parseDocument<RelayConfigReader, ConfigResult, Config>(json, fileName);
}

ConfigResult ConfigLoader::load(const QString &path)
{
    return loadDocument(path, &ConfigLoader::parse);
}

AgentConfigResult ConfigLoader::parseAgent(const QByteArray &json, const QString &fileName)
{
    return parseDocument<AgentConfigReader, AgentConfigResult, AgentConfig>(json, fileName);
}

AgentConfigResult ConfigLoader::loadAgent(const QString &path)
{
    return loadDocument(path, &ConfigLoader::parseAgent);
}

bool ConfigLoader::looksLikeAgentConfig(const QByteArray &json)
{
    QJsonParseError parseError;
    const std::optional<JsonNode> root = JsonNode::parse(json, &parseError);
    return root && root->isObject() && root->member(u"engines") && !root->member(u"hosts");
}

ConfigResult ConfigLoader::fromFlags(const QString &listen, const QStringList &upstreams)
{
    ConfigReport report{QString()};
    Config config;
    const QString listenFlag = u"--listen"_s;
    const QString upstreamFlag = u"--upstream"_s;

    if (!listen.isEmpty()) {
        QString why;
        if (!parseListen(listen, &config.listenAddress, &config.listenPort, &why))
            report.error(0, listenFlag, why);
        // Typing a LAN address on the command line is as explicit as "lan": true in a file.
        config.access.lan = !config.listenAddress.isLoopback();
    }
    if (upstreams.isEmpty())
        report.error(0, upstreamFlag, tr("no upstreams; give at least one --upstream NAME=URL"));

    for (const QString &upstream : upstreams) {
        const qsizetype equals = upstream.indexOf(u'=');
        if (equals < 0) {
            report.error(0, upstreamFlag, tr("expected NAME=URL, got \"%1\"").arg(upstream));
            continue;
        }
        HostConfig host;
        host.name = upstream.left(equals);
        host.driver = u"static"_s;
        bool ok = true;
        if (!ConfigNames::isValidHostName(host.name)) {
            report.error(0, upstreamFlag, ConfigNames::invalidHostName(host.name));
            ok = false;
        } else if (config.host(host.name)) {
            report.error(0, upstreamFlag, tr("host \"%1\" is given twice").arg(host.name));
            ok = false;
        }
        QString why;
        const std::optional<QUrl> url = EngineUrl::parse(upstream.mid(equals + 1), &why);
        if (!url) {
            report.error(0, upstreamFlag, tr("%1: %2").arg(host.name, why));
            ok = false;
        }
        if (!ok)
            continue;
        EngineConfig engine;
        engine.name = u"main"_s;
        engine.url = *url;
        host.engines.append(engine);
        config.hosts.append(host);
    }
    return report.result<ConfigResult>(config);
}

bool ConfigLoader::parseListen(const QString &text, QHostAddress *address, quint16 *port, QString *error)
{
    auto fail = [error](const QString &why) {
        if (error)
            *error = why;
        return false;
    };
    const QString usage = tr("expected HOST:PORT, e.g. \"127.0.0.1:18766\", \"0.0.0.0:18766\" or \"[::1]:18766\"");

    QString hostPart;
    QString portPart;
    if (text.startsWith(u'[')) {
        const qsizetype close = text.indexOf(u']');
        if (close < 0 || text.mid(close + 1, 1) != u":")
            return fail(usage);
        hostPart = text.mid(1, close - 1);
        portPart = text.mid(close + 2);
    } else {
        const qsizetype colon = text.lastIndexOf(u':');
        if (colon < 0)
            return fail(usage);
        hostPart = text.left(colon);
        portPart = text.mid(colon + 1);
        if (hostPart.contains(u':'))
            return fail(tr("an IPv6 address needs brackets, e.g. \"[::1]:18766\""));
    }

    bool portOk = !portPart.isEmpty() && portPart.size() <= 5
            && std::all_of(portPart.cbegin(), portPart.cend(), [](QChar c) { return c >= u'0' && c <= u'9'; });
    const uint portValue = portOk ? portPart.toUInt() : 0;
    if (!portOk || portValue > 65535)
        return fail(tr("invalid port \"%1\" (expected a number from 0 to 65535)").arg(portPart));

    QHostAddress parsed;
    if (hostPart.isEmpty()) {
        parsed = QHostAddress(QHostAddress::Any);
    } else if (hostPart.compare(u"localhost", Qt::CaseInsensitive) == 0) {
        parsed = QHostAddress(QHostAddress::LocalHost);
    } else if (!parsed.setAddress(hostPart)) {
        return fail(tr("\"%1\" is not an IP address (host names are not looked up; "
                       "use 0.0.0.0 for all interfaces)").arg(hostPart));
    }
    if (text.startsWith(u'[') && parsed.protocol() != QAbstractSocket::IPv6Protocol)
        return fail(tr("brackets are for IPv6 addresses: \"%1\"").arg(text));

    if (address)
        *address = parsed;
    if (port)
        *port = quint16(portValue);
    return true;
}

} // namespace switchyard
