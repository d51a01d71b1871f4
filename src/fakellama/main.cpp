// switchyard-fakellama: the fake llama.cpp router as a process, for tests that
// need a real child process and for trying Switchyard without a GPU.

#include "fakellamaserver.h"
#include "fakeoptions.h"

#include <QCoreApplication>
#include <QSocketNotifier>

#include <csignal>
#include <cstdio>
#include <sys/socket.h>
#include <unistd.h>

using namespace switchyard::fake;

namespace {

int g_signalPipe[2] = {-1, -1};

void onSignal(int)
{
    const char byte = 1;
    // Only async-signal-safe work here; the event loop does the rest.
    [[maybe_unused]] const auto written = ::write(g_signalPipe[1], &byte, 1);
}

// SIGTERM/SIGINT end the event loop through a self-pipe, so the process exits 0
// after a normal shutdown.
bool watchSignals(QCoreApplication &app)
{
    if (::socketpair(AF_UNIX, SOCK_STREAM, 0, g_signalPipe) != 0)
        return false;
    auto *notifier = new QSocketNotifier(g_signalPipe[0], QSocketNotifier::Read, &app);
    QObject::connect(notifier, &QSocketNotifier::activated, &app, [&app, notifier] {
        notifier->setEnabled(false);
        char byte = 0;
        [[maybe_unused]] const auto read = ::read(g_signalPipe[0], &byte, 1);
        app.quit();
    });
    struct sigaction action = {};
    action.sa_handler = onSignal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    return ::sigaction(SIGTERM, &action, nullptr) == 0 && ::sigaction(SIGINT, &action, nullptr) == 0;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("switchyard-fakellama"));

    const QStringList arguments = QCoreApplication::arguments();
    if (arguments.contains(QStringLiteral("--help")) || arguments.contains(QStringLiteral("-h"))) {
        std::fputs(qPrintable(fakeOptionsUsage()), stdout);
        return 0;
    }
    QString error;
    const FakeOptions options = parseFakeOptions(arguments, &error);
    if (!error.isEmpty()) {
        std::fprintf(stderr, "switchyard-fakellama: %s\n%s", qPrintable(error), qPrintable(fakeOptionsUsage()));
        return 2;
    }
    if (!watchSignals(app)) {
        std::perror("switchyard-fakellama: signal setup");
        return 1;
    }

    FakeLlamaServer server(options);
    if (!server.listen(options.host, options.port)) {
        std::fprintf(stderr, "switchyard-fakellama: cannot listen on %s:%u: %s\n",
                     qPrintable(options.host.toString()), unsigned(options.port), qPrintable(server.errorString()));
        return 1;
    }
    QString host = options.host.toString();
    if (options.host.protocol() == QAbstractSocket::IPv6Protocol)
        host = u'[' + host + u']';
    std::printf("fakellama listening on http://%s:%u\n", qPrintable(host), unsigned(server.port()));
    std::fflush(stdout);
    return app.exec();
}
