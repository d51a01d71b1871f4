#include "engines/gpuboard.h"

namespace switchyard {

void GpuBoard::set(const QString &host, const QList<GpuReading> &gpus)
{
    if (m_gpus.value(host) == gpus && (m_gpus.contains(host) || gpus.isEmpty()))
        return;
    if (gpus.isEmpty())
        m_gpus.remove(host);
    else
        m_gpus.insert(host, gpus);
    emit changed(host);
}

} // namespace switchyard
