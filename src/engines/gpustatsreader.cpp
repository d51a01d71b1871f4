#include "engines/gpustatsreader.h"

#include "engines/enginelogging.h"
#include "engines/gpustatsparser.h"

#include <QProcess>
#include <QStandardPaths>

namespace switchyard {

using namespace Qt::StringLiterals;

GpuStatsReader::GpuStatsReader(std::chrono::milliseconds timeout, QObject *parent)
    : QObject(parent)
    , m_timeout(timeout)
{
    m_deadline.setSingleShot(true);
    connect(&m_deadline, &QTimer::timeout, this, [this] {
        qCDebug(lcEngines) << m_tool << "took longer than" << m_timeout.count() << "ms; no GPUs from it";
        if (m_process) {
            QProcess *p = m_process;
            m_process = nullptr;
            p->disconnect(this);
            p->kill();
            // Reaped once it has died, so no zombie is left.
            connect(p, &QProcess::finished, p, &QObject::deleteLater);
        }
        toolDone({}, false);
    });
}

GpuStatsReader::~GpuStatsReader()
{
    if (m_process) {
        m_process->disconnect(this);
        m_process->kill();
        m_process->waitForFinished(1000);
    }
}

bool GpuStatsReader::isFresh(std::chrono::milliseconds maxAge) const
{
    return m_readAt.isValid() && m_readAt.elapsed() <= maxAge.count();
}

void GpuStatsReader::refresh()
{
    if (m_reading)
        return;
    m_reading = true;
    m_collecting.clear();
    m_pending = {u"nvidia-smi"_s, u"rocm-smi"_s};
    // Queued, so finished() never comes before refresh() has returned.
    QMetaObject::invokeMethod(this, &GpuStatsReader::runNext, Qt::QueuedConnection);
}

void GpuStatsReader::runNext()
{
    while (!m_pending.isEmpty()) {
        m_tool = m_pending.takeFirst();
        const QString path = QStandardPaths::findExecutable(m_tool);
        if (path.isEmpty())
            continue;   // not on this box: no row, no error
        auto *process = new QProcess(this);
        m_process = process;
        process->setProgram(path);
        process->setArguments(m_tool == "nvidia-smi"_L1 ? GpuStatsParser::nvidiaSmiArguments()
                                                       : GpuStatsParser::rocmSmiArguments());
        process->setStandardInputFile(QProcess::nullDevice());
        process->setProcessChannelMode(QProcess::SeparateChannels);
        connect(process, &QProcess::finished, this, [this, process](int code, QProcess::ExitStatus status) {
            m_deadline.stop();
            m_process = nullptr;
            process->deleteLater();
            toolDone(process->readAllStandardOutput(), status == QProcess::NormalExit && code == 0);
        });
        connect(process, &QProcess::errorOccurred, this, [this, process](QProcess::ProcessError error) {
            if (error != QProcess::FailedToStart)
                return;   // the others end in finished()
            m_deadline.stop();
            m_process = nullptr;
            process->deleteLater();
            toolDone({}, false);
        });
        m_deadline.start(m_timeout);
        process->start(QIODevice::ReadOnly);
        return;
    }
    m_reading = false;
    m_readings = m_collecting;
    m_readAt.start();
    emit finished(m_readings);
}

void GpuStatsReader::toolDone(const QByteArray &output, bool ok)
{
    if (ok) {
        QStringList skipped;
        const QList<GpuReading> gpus = m_tool == "nvidia-smi"_L1 ? GpuStatsParser::parseNvidiaSmi(output, &skipped)
                                                                 : GpuStatsParser::parseRocmSmi(output);
        for (const QString &line : std::as_const(skipped))
            qCDebug(lcEngines) << m_tool << "printed a line that is not a GPU:" << line;
        m_collecting.append(gpus);
    } else {
        qCDebug(lcEngines) << m_tool << "gave no GPUs";
    }
    QMetaObject::invokeMethod(this, &GpuStatsReader::runNext, Qt::QueuedConnection);
}

} // namespace switchyard
