#pragma once

#include "config/config.h"

#include <QByteArray>
#include <QCoreApplication>
#include <QHostAddress>
#include <QString>
#include <QStringList>

namespace switchyard {

// Reads and validates a Switchyard config. Every problem is reported, each with its field path
// and line, so one run of `check-config` shows everything that is wrong. See docs/CONFIG.md.
// The checks of each kind of file are in RelayConfigReader and AgentConfigReader.
class ConfigLoader final
{
    Q_DECLARE_TR_FUNCTIONS(ConfigLoader)

public:
    static constexpr quint16 DefaultPort = 18766;
    static constexpr quint16 DefaultAgentPort = 18767;

    // fileName only labels the errors.
    static ConfigResult parse(const QByteArray &json, const QString &fileName);
    static ConfigResult load(const QString &path);

    // The agent's own file (`switchyard agent --config FILE`), checked the same way.
    static AgentConfigResult parseAgent(const QByteArray &json, const QString &fileName);
    static AgentConfigResult loadAgent(const QString &path);
    // An object with "engines" and no "hosts" at the top: an agent's file, not a relay's.
    static bool looksLikeAgentConfig(const QByteArray &json);

    // The no-file mode: `--listen 127.0.0.1:PORT --upstream NAME=URL ...`. Every upstream is a
    // static host with one engine called "main". An empty listen means 127.0.0.1:18766.
    static ConfigResult fromFlags(const QString &listen, const QStringList &upstreams);

    // "127.0.0.1:18766", "[::1]:18766", "0.0.0.0:18766", ":18766" (all interfaces),
    // "localhost:18766". Port 0 asks the system for a free port. On failure, *error says why.
    static bool parseListen(const QString &text, QHostAddress *address, quint16 *port,
                            QString *error = nullptr);

    ConfigLoader() = delete;
};

} // namespace switchyard
