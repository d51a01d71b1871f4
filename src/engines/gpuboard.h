#pragma once

#include "engines/gpureading.h"

#include <QHash>
#include <QObject>

namespace switchyard {

// The GPUs each host's agent last reported, for /admin/hosts and the host cards. A host that
// reports none (no agent, or no GPU tool on the box) has no entry.
class GpuBoard final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(GpuBoard)

public:
    using QObject::QObject;

    void set(const QString &host, const QList<GpuReading> &gpus);
    QList<GpuReading> gpus(const QString &host) const { return m_gpus.value(host); }

Q_SIGNALS:
    void changed(const QString &host);

private:
    QHash<QString, QList<GpuReading>> m_gpus;
};

} // namespace switchyard
