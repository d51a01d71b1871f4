// switchyard-screenshots: `switchyard --demo` offscreen, driven by the screenshot runner, which
// saves the window and its parts as PNGs and quits (scripts/screenshots.sh). A tool of the
// project's, built but not installed: the product's executable carries no screenshot runner.
//   switchyard-screenshots --screenshots DIR --demo [switchyard's flags: --listen, --data-dir, ...]
#include "app/appsettings.h"
#include "app/commandline.h"
#include "app/launch.h"
#include "app/relayrun.h"
#include "screenshots/screenshotrunner.h"
#include "desktop/desktopfrontend.h"

#include <QApplication>
#include <QTextStream>

#include <memory>

using namespace switchyard;
using namespace Qt::StringLiterals;

namespace {

// --screenshots DIR is this tool's own; switchyard's parser takes the rest.
QString takeScreenshotsOption(QStringList &arguments)
{
    const qsizetype i = arguments.indexOf(u"--screenshots"_s);
    if (i < 0 || i + 1 >= arguments.size())
        return {};
    const QString dir = arguments.at(i + 1);
    arguments.remove(i, 2);
    return dir;
}

} // namespace

int main(int argc, char *argv[])
{
    QStringList arguments;
    for (int i = 0; i < argc; ++i)
        arguments.append(QString::fromLocal8Bit(argv[i]));
    const QString directory = takeScreenshotsOption(arguments);
    const AppOptions options = CommandLine::parse(arguments);

    // It renders the window offscreen: a GUI without a display.
    Launch::prepareProcess(true);
    QApplication app(argc, argv);
    Launch::setUpApplication(&app);

    QTextStream err(stderr);
    if (directory.isEmpty() || !options.demo || options.command != AppOptions::Command::Run || options.headless
        || !options.error.isEmpty()) {
        err << "usage: switchyard-screenshots --screenshots DIR --demo [--listen ADDR] [--data-dir DIR]" << Qt::endl;
        if (!options.error.isEmpty())
            err << "switchyard-screenshots: " << options.error << Qt::endl;
        return 2;
    }
    const std::unique_ptr<AppSettings> settings = AppSettings::openDefault();
    DesktopFrontend frontend(options, true, settings.get(), [directory](DesktopApp *desktop, const QUrl &endpoint) {
        auto runner = std::make_unique<ScreenshotRunner>(desktop, endpoint, directory);
        runner->start();
        return std::unique_ptr<QObject>(std::move(runner));
    });
    return runRelay(options, settings.get(), frontend);
}
