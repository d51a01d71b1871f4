#include "demofleetchannel.h"

#include "demobox.h"
#include "demofleetsimulation.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QSocketNotifier>

#include <cerrno>
#include <cstdio>
#include <unistd.h>

namespace switchyard::fake {

using namespace Qt::StringLiterals;

DemoFleetChannel::DemoFleetChannel(DemoFleetSimulation *fleet, QObject *parent)
    : QObject(parent)
    , m_fleet(fleet)
{
}

void DemoFleetChannel::open()
{
    write(m_fleet->describe());
    for (DemoBox *box : m_fleet->boxes())
        connect(box, &DemoBox::event, this, &DemoFleetChannel::write);
    m_stdin = new QSocketNotifier(STDIN_FILENO, QSocketNotifier::Read, this);
    connect(m_stdin, &QSocketNotifier::activated, this, &DemoFleetChannel::readCommands);
}

void DemoFleetChannel::write(const QJsonObject &line)
{
    const QByteArray bytes = QJsonDocument(line).toJson(QJsonDocument::Compact) + '\n';
    std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stdout);
    std::fflush(stdout);
}

void DemoFleetChannel::readCommands()
{
    char chunk[4096];
    const ssize_t got = ::read(STDIN_FILENO, chunk, sizeof chunk);
    if (got < 0 && (errno == EINTR || errno == EAGAIN))
        return;
    if (got <= 0) {
        m_stdin->setEnabled(false);
        emit closed();
        return;
    }
    m_buffer.append(chunk, got);
    qsizetype end;
    while ((end = m_buffer.indexOf('\n')) >= 0) {
        const QByteArray line = m_buffer.left(end).trimmed();
        m_buffer.remove(0, end + 1);
        if (!line.isEmpty())
            run(line);
    }
}

void DemoFleetChannel::run(const QByteArray &line)
{
    const QJsonObject command = QJsonDocument::fromJson(line).object();
    const QString host = command.value(u"host"_s).toString();
    const QString action = command.value(u"do"_s).toString();
    const QString engine = command.value(u"engine"_s).toString();
    DemoBox *box = m_fleet->box(host);
    if (!box) {
        std::fprintf(stderr, "switchyard-demo-fleet: no simulated host \"%s\" (%s)\n", qPrintable(host), line.constData());
        return;
    }
    if (action == "start"_L1)
        box->startEngine(engine);
    else if (action == "stop"_L1)
        box->stopEngine(engine);
    else if (action == "probe"_L1)
        box->probe();
    else
        std::fprintf(stderr, "switchyard-demo-fleet: unknown command: %s\n", line.constData());
}

} // namespace switchyard::fake
