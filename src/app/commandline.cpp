#include "app/commandline.h"

#include <QCoreApplication>

namespace switchyard::CommandLine {

using namespace Qt::StringLiterals;

QString helpText()
{
    return QCoreApplication::translate("CommandLine",
        "Usage: switchyard [options]\n"
        "       switchyard check-config FILE\n"
        "\n"
        "One endpoint on the LAN in front of several llama.cpp GPU boxes.\n"
        "\n"
        "Options:\n"
        "  --config FILE           read hosts and settings from FILE (JSON, see docs/CONFIG.md)\n"
        "  --listen HOST:PORT      address to serve on (default 127.0.0.1:18766)\n"
        "  --upstream NAME=URL     a static host, without a config file (repeatable)\n"
        "  --demo                  start three simulated hosts and relay in front of them\n"
        "  --headless              no window (also the default when there is no display)\n"
        "  --tray                  start with only a tray icon\n"
        "  --data-dir DIR          where the history store lives\n"
        "  --version               print the version\n"
        "  -h, --help              this text\n"
        "\n"
        "Commands:\n"
        "  check-config FILE       validate a config file; says what is wrong and where, exits 1 if anything is\n"
        "  agent --config FILE     run on a GPU box: supervise its engines and answer the relay\n"
        "  export opencode|claude-code|pi [options]\n"
        "                          print a client config that points at this relay (see export --help)\n"
        "  log [--follow] [--host H] [--model M]\n"
        "                          print request history in the journal format\n"
        "  lease HOST --owner NAME -- COMMAND...\n"
        "                          take a host's GPU from the relay while COMMAND runs\n"
        "  usage [--since 7d] [--by key|client|alias|host]\n"
        "                          print requests, tokens, GPU time and switches per client key\n");
}

QString checkConfigHelpText()
{
    return QCoreApplication::translate("CommandLine",
        "Usage: switchyard check-config FILE\n"
        "\n"
        "Validates a relay's or an agent's config file without starting anything. Prints every\n"
        "problem with its file, line and field path and exits 1 if there is one; otherwise prints\n"
        "\"FILE: ok\" with the number of hosts and engines and exits 0.\n");
}

AppOptions parse(const QStringList &arguments)
{
    AppOptions o;
    static const QStringList subcommands = {u"agent"_s, u"export"_s, u"log"_s, u"lease"_s, u"usage"_s};
    if (arguments.size() > 1 && subcommands.contains(arguments.at(1))) {
        o.command = AppOptions::Command::Subcommand;
        o.subcommand = arguments.at(1);
        o.subcommandArguments = arguments.mid(2);
        return o;
    }
    auto tr = [](const char *text) { return QCoreApplication::translate("CommandLine", text); };
    for (qsizetype i = 1; i < arguments.size(); ++i) {
        const QString &a = arguments.at(i);
        auto value = [&](const QString &name) -> QString {
            if (i + 1 >= arguments.size()) {
                o.error = tr("%1 needs a value").arg(name);
                return {};
            }
            return arguments.at(++i);
        };
        if (a == "--help"_L1 || a == "-h"_L1) {
            o.command = AppOptions::Command::Help;
        } else if (a == "--version"_L1) {
            o.command = AppOptions::Command::Version;
        } else if (a == "--headless"_L1) {
            o.headless = true;
        } else if (a == "--tray"_L1) {
            o.tray = true;
        } else if (a == "--demo"_L1) {
            o.demo = true;
        } else if (a == "--config"_L1) {
            o.configPath = value(a);
        } else if (a == "--listen"_L1) {
            o.listen = value(a);
        } else if (a == "--upstream"_L1) {
            o.upstreams.append(value(a));
        } else if (a == "--data-dir"_L1) {
            o.dataDir = value(a);
        } else if (a == "check-config"_L1) {
            o.command = AppOptions::Command::CheckConfig;
            o.checkConfigPath = value(a);
            // `check-config --help` asks for help, not for a file named --help.
            if (o.checkConfigPath == "--help"_L1 || o.checkConfigPath == "-h"_L1)
                o.command = AppOptions::Command::CheckConfigHelp;
        } else {
            o.error = tr("unknown argument: %1 (see --help)").arg(a);
        }
        if (!o.error.isEmpty())
            return o;
    }
    if (o.demo && (!o.configPath.isEmpty() || !o.upstreams.isEmpty()))
        o.error = tr("--demo brings its own hosts; leave out --config and --upstream");
    else if (!o.configPath.isEmpty() && !o.upstreams.isEmpty())
        o.error = tr("use either --config or --upstream, not both");
    return o;
}

} // namespace switchyard::CommandLine
