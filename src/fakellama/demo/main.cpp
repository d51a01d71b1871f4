// switchyard-demo-fleet: the simulated GPU boxes of `switchyard --demo`, in a process of their own
// so the product's executable links no fake. The relay starts it (installed under
// libexec/switchyard/), reads the fleet's description from its first line of stdout and drives
// the boxes over its stdin (DemoFleetChannel). It ends when its stdin closes or its parent dies:
// no simulated box outlives the window that started it.
#include "demofleetchannel.h"
#include "demofleetsimulation.h"

#include <QCoreApplication>

#include <cstdio>
#include <sys/prctl.h>
#include <csignal>
#include <unistd.h>

using namespace switchyard::fake;
using namespace Qt::StringLiterals;

namespace {

const char Usage[] = "usage: switchyard-demo-fleet [--boot-ms N] [--engine-start-ms N]\n"
                     "Started by `switchyard --demo`; speaks JSON lines on stdin and stdout.\n";

bool readMilliseconds(const QStringList &arguments, qsizetype &i, std::chrono::milliseconds *out)
{
    if (i + 1 >= arguments.size())
        return false;
    bool ok = false;
    const int value = arguments.at(++i).toInt(&ok);
    if (!ok || value < 0)
        return false;
    *out = std::chrono::milliseconds(value);
    return true;
}

} // namespace

int main(int argc, char *argv[])
{
    // Dies with the relay that started it even if its stdin stayed open (the relay's end of the
    // pipe inherited by a process it started): the end of stdin is the usual way out.
    const pid_t parent = ::getppid();
    ::prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (::getppid() != parent)
        return 0;   // it died before prctl took effect

    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(u"switchyard-demo-fleet"_s);
    DemoFleetSimulation::Timing timing;
    const QStringList arguments = QCoreApplication::arguments();
    for (qsizetype i = 1; i < arguments.size(); ++i) {
        const QString &a = arguments.at(i);
        bool ok = false;
        if (a == "--boot-ms"_L1)
            ok = readMilliseconds(arguments, i, &timing.boot);
        else if (a == "--engine-start-ms"_L1)
            ok = readMilliseconds(arguments, i, &timing.engineStart);
        else if (a == "--help"_L1 || a == "-h"_L1) {
            std::fputs(Usage, stdout);
            return 0;
        }
        if (!ok) {
            std::fprintf(stderr, "switchyard-demo-fleet: bad argument %s\n%s", qPrintable(a), Usage);
            return 2;
        }
    }

    DemoFleetSimulation fleet(timing);
    QString error;
    if (!fleet.start(&error)) {
        std::fprintf(stderr, "switchyard-demo-fleet: %s\n", qPrintable(error));
        return 1;
    }
    DemoFleetChannel channel(&fleet);
    QObject::connect(&channel, &DemoFleetChannel::closed, &app, &QCoreApplication::quit);
    channel.open();
    return app.exec();
}
