#pragma once

#include <QString>
#include <QStringList>

namespace switchyard {

// What the user asked the switchyard executable to do.
struct AppOptions
{
    enum class Command { Run, CheckConfig, CheckConfigHelp, Help, Version, Subcommand };

    Command command = Command::Run;
    bool headless = false;
    bool tray = false;
    bool demo = false;
    QString configPath;
    QString listen;          // --listen HOST:PORT
    QStringList upstreams;   // --upstream NAME=URL, repeatable
    QString dataDir;
    QString checkConfigPath;
    QString subcommand;      // agent | export | log | lease: parsed by the command itself
    QStringList subcommandArguments;
    QString error;           // set when the arguments make no sense
};

namespace CommandLine {
AppOptions parse(const QStringList &arguments);
QString helpText();
QString checkConfigHelpText();
} // namespace CommandLine

} // namespace switchyard
