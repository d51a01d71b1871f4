#pragma once

#include "engines/gpureading.h"

#include <QElapsedTimer>
#include <QObject>
#include <QPointer>
#include <QStringList>
#include <QTimer>

#include <chrono>

class QProcess;

namespace switchyard {

// Reads the box's GPUs by running nvidia-smi and then rocm-smi, each where it is on PATH, without
// blocking: refresh() ends in finished(). A tool that is missing, fails, prints nothing usable or
// takes longer than the timeout adds no GPU; that is never an error.
class GpuStatsReader final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(GpuStatsReader)

public:
    explicit GpuStatsReader(std::chrono::milliseconds timeout = std::chrono::seconds(5), QObject *parent = nullptr);
    ~GpuStatsReader() override;

    // Starts a read unless one runs; finished() follows (queued, also when no tool is there).
    void refresh();
    bool isReading() const { return m_reading; }
    // The last read's GPUs, and whether one has finished within `maxAge`.
    QList<GpuReading> readings() const { return m_readings; }
    bool isFresh(std::chrono::milliseconds maxAge) const;

Q_SIGNALS:
    void finished(const QList<switchyard::GpuReading> &gpus);

private:
    void runNext();
    void toolDone(const QByteArray &output, bool ok);

    std::chrono::milliseconds m_timeout;
    QStringList m_pending;              // tools still to run in this read
    QString m_tool;                     // the one running
    QPointer<QProcess> m_process;
    QTimer m_deadline;
    QList<GpuReading> m_collecting;
    QList<GpuReading> m_readings;
    QElapsedTimer m_readAt;
    bool m_reading = false;
};

} // namespace switchyard
