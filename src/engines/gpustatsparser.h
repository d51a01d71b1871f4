#pragma once

#include "engines/gpureading.h"

#include <QByteArrayView>
#include <QStringList>

namespace switchyard {

// Reads what the GPU tools print; pure, so every shape of output is table-tested.
class GpuStatsParser final
{
public:
    // The arguments the agent runs each tool with.
    static QStringList nvidiaSmiArguments();
    static QStringList rocmSmiArguments();

    // nvidia-smi --query-gpu=memory.used,memory.total,utilization.gpu,temperature.gpu
    //            --format=csv,noheader,nounits
    // One line per GPU: "1234, 24576, 7, 41". A field of "[N/A]" (or "N/A") is unknown; a
    // line that is not four fields of numbers or N/A is skipped and said in *skipped.
    static QList<GpuReading> parseNvidiaSmi(QByteArrayView output, QStringList *skipped = nullptr);

    // rocm-smi --showmeminfo vram --showuse --showtemp --json
    // {"card0": {"VRAM Total Memory (B)": "...", "VRAM Total Used Memory (B)": "...",
    //            "GPU use (%)": "3", "Temperature (Sensor edge) (C)": "41.0", ...}, "system": {...}}
    // Cards in their number's order; output that is not such JSON gives no GPUs.
    static QList<GpuReading> parseRocmSmi(QByteArrayView output);
};

} // namespace switchyard
