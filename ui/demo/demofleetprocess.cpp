#include "demo/demofleetprocess.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>

#include <cstdio>

namespace switchyard {

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

QString DemoFleetProcess::findHelper(QStringList *lookedAt)
{
    const QDir here(QCoreApplication::applicationDirPath());
    // SWITCHYARD_LIBEXEC_FROM_BIN: libexec/switchyard as seen from bin/ once installed (CMake).
    const QStringList candidates{here.filePath(HelperName),
                                 QDir::cleanPath(here.filePath(QStringLiteral(SWITCHYARD_LIBEXEC_FROM_BIN) + u'/' + HelperName))};
    for (const QString &path : candidates) {
        const QFileInfo info(path);
        if (info.isFile() && info.isExecutable())
            return path;
    }
    *lookedAt = candidates;
    return {};
}

DemoFleetProcess::DemoFleetProcess(QString program, QStringList arguments, QObject *parent)
    : QObject(parent)
    , m_program(std::move(program))
    , m_arguments(std::move(arguments))
{
    m_process.setProcessChannelMode(QProcess::SeparateChannels);
    connect(&m_process, &QProcess::readyReadStandardError, this, &DemoFleetProcess::forwardErrors);
    connect(&m_process, &QProcess::finished, this, [this](int code, QProcess::ExitStatus status) {
        if (!m_stopping) {
            std::fprintf(stderr, "switchyard: the demo fleet (%s) ended (%s %d): its hosts are gone\n",
                         qPrintable(m_program), status == QProcess::NormalExit ? "exit code" : "signal", code);
        }
    });
}

DemoFleetProcess::~DemoFleetProcess()
{
    if (m_process.state() == QProcess::NotRunning)
        return;
    m_stopping = true;
    m_process.closeWriteChannel();   // the helper's way out
    if (!m_process.waitForFinished(5000)) {
        m_process.kill();
        m_process.waitForFinished(2000);
    }
}

bool DemoFleetProcess::start(QJsonObject *description, QString *error)
{
    m_process.start(m_program, m_arguments);
    if (!m_process.waitForStarted(10000)) {
        *error = QCoreApplication::translate("DemoFleet", "%1 did not start: %2").arg(m_program, m_process.errorString());
        return false;
    }
    const QDeadlineTimer deadline(20s);
    QList<QByteArray> lines;
    while (lines.isEmpty()) {
        if (m_process.state() != QProcess::Running || !m_process.waitForReadyRead(int(deadline.remainingTime()))) {
            const QString said = QString::fromLocal8Bit(m_process.readAllStandardError()).trimmed();
            *error = QCoreApplication::translate("DemoFleet", "%1 did not describe its hosts: %2")
                         .arg(m_program, said.isEmpty() ? m_process.errorString() : said);
            return false;
        }
        lines = takeLines();
    }
    const QJsonObject first = QJsonDocument::fromJson(lines.takeFirst()).object();
    if (first.value(u"event"_s).toString() != "fleet"_L1) {
        *error = QCoreApplication::translate("DemoFleet", "%1 did not describe its hosts").arg(m_program);
        return false;
    }
    *description = first;
    m_described = true;
    forwardErrors();
    connect(&m_process, &QProcess::readyReadStandardOutput, this, &DemoFleetProcess::readEvents);
    for (const QByteArray &line : std::as_const(lines))
        emit eventReceived(QJsonDocument::fromJson(line).object());
    return true;
}

void DemoFleetProcess::send(const QJsonObject &command)
{
    if (m_process.state() == QProcess::Running)
        m_process.write(QJsonDocument(command).toJson(QJsonDocument::Compact) + '\n');
}

QList<QByteArray> DemoFleetProcess::takeLines()
{
    m_partial.append(m_process.readAllStandardOutput());
    QList<QByteArray> lines;
    qsizetype end;
    while ((end = m_partial.indexOf('\n')) >= 0) {
        lines.append(m_partial.left(end));
        m_partial.remove(0, end + 1);
    }
    return lines;
}

void DemoFleetProcess::readEvents()
{
    const QList<QByteArray> lines = takeLines();
    for (const QByteArray &line : lines)
        emit eventReceived(QJsonDocument::fromJson(line).object());
}

void DemoFleetProcess::forwardErrors()
{
    // Before its description, start() reads them for its error; after it, they are the console's.
    if (!m_described)
        return;
    const QByteArray said = m_process.readAllStandardError();
    std::fwrite(said.constData(), 1, size_t(said.size()), stderr);
}

} // namespace switchyard
