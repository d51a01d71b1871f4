// The switchyard executable: decides between window, tray and headless at run time (a flag,
// not an #ifdef), then runs the same relay in each (app/relayrun.h). It links no test double:
// `--demo` starts the simulated boxes as a helper process (switchyard-demo-fleet), and the
// screenshot runner is an executable of its own (switchyard-screenshots, demo/screenshotsmain.cpp).
#include "app/appsettings.h"
#include "app/commandline.h"
#include "app/launch.h"
#include "app/relayrun.h"
#include "desktop/desktopfrontend.h"

#include <QApplication>
#include <QTextStream>

#include <memory>

using namespace switchyard;

namespace {

bool hasDisplay()
{
    const QByteArray platform = qgetenv("QT_QPA_PLATFORM");
    if (!platform.isEmpty())
        return platform != "offscreen" && platform != "minimal";
    return !qEnvironmentVariableIsEmpty("DISPLAY") || !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY");
}

} // namespace

int main(int argc, char *argv[])
{
    QStringList arguments;
    for (int i = 0; i < argc; ++i)
        arguments.append(QString::fromLocal8Bit(argv[i]));
    const AppOptions options = CommandLine::parse(arguments);

    const bool gui = options.command == AppOptions::Command::Run && !options.headless && hasDisplay();
    Launch::prepareProcess(gui);
    std::unique_ptr<QCoreApplication> app = gui ? std::make_unique<QApplication>(argc, argv)
                                                : std::make_unique<QCoreApplication>(argc, argv);
    Launch::setUpApplication(app.get());

    QTextStream out(stdout);
    QTextStream err(stderr);
    if (const std::optional<int> code = Launch::runCommand(options, out, err))
        return *code;
    // The window and the tray read the desktop's settings; headless mode only its flags.
    const std::unique_ptr<AppSettings> settings = gui ? AppSettings::openDefault() : nullptr;
    DesktopFrontend frontend(options, gui, settings.get());
    return runRelay(options, settings.get(), frontend);
}
