// What nvidia-smi and rocm-smi print, read into GpuReadings: real output lines, several GPUs,
// N/A fields, warnings and garbage.
#include "engines/gpustatsparser.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace switchyard;
using namespace Qt::StringLiterals;

namespace {

GpuReading nvidia(int index, std::optional<qint64> used, std::optional<qint64> total, std::optional<int> busy,
                  std::optional<int> temperature)
{
    return GpuReading{index, u"nvidia"_s, used, total, busy, temperature};
}

} // namespace

class TestGpuStatsParser : public QObject
{
    Q_OBJECT

private slots:
    void nvidiaSmi_data();
    void nvidiaSmi();
    void rocmSmi_data();
    void rocmSmi();
    void jsonRoundTrip();
};

void TestGpuStatsParser::nvidiaSmi_data()
{
    QTest::addColumn<QByteArray>("output");
    QTest::addColumn<QList<GpuReading>>("expected");
    QTest::addColumn<int>("skipped");

    QTest::newRow("one RTX 3090") << QByteArray("20871, 24576, 37, 61\n")
                                  << QList<GpuReading>{nvidia(0, 20871, 24576, 37, 61)} << 0;
    QTest::newRow("two GPUs, no trailing newline")
        << QByteArray("23112, 24576, 98, 74\n1, 12288, 0, 33")
        << QList<GpuReading>{nvidia(0, 23112, 24576, 98, 74), nvidia(1, 1, 12288, 0, 33)} << 0;
    QTest::newRow("CRLF and blank lines") << QByteArray("\r\n512, 8192, 5, 40\r\n\r\n")
                                          << QList<GpuReading>{nvidia(0, 512, 8192, 5, 40)} << 0;
    QTest::newRow("N/A fields (a laptop GPU without sensors)")
        << QByteArray("4, 4096, [N/A], [N/A]\n")
        << QList<GpuReading>{nvidia(0, 4, 4096, std::nullopt, std::nullopt)} << 0;
    QTest::newRow("not supported") << QByteArray("100, 81920, [Not Supported], 45\n")
                                   << QList<GpuReading>{nvidia(0, 100, 81920, std::nullopt, 45)} << 0;
    QTest::newRow("driver error text")
        << QByteArray("NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. "
                      "Make sure that the latest NVIDIA driver is installed and running.\n")
        << QList<GpuReading>{} << 1;
    QTest::newRow("a header line and a good line")
        << QByteArray("memory.used [MiB], memory.total [MiB], utilization.gpu [%], temperature.gpu\n7, 24576, 0, 30\n")
        << QList<GpuReading>{nvidia(0, 7, 24576, 0, 30)} << 1;
    QTest::newRow("too few and too many fields, a negative")
        << QByteArray("1, 2, 3\n1, 2, 3, 4, 5\n-1, 2, 3, 4\n9, 10, 11, 12\n")
        << QList<GpuReading>{nvidia(0, 9, 10, 11, 12)} << 3;
    QTest::newRow("units left in (fractional)") << QByteArray("1.4, 2.6, 3, 4\n")
                                                << QList<GpuReading>{nvidia(0, 1, 3, 3, 4)} << 0;
    QTest::newRow("empty") << QByteArray() << QList<GpuReading>{} << 0;
    QTest::newRow("binary garbage") << QByteArray("\x00\x01\xff,,,\n", 7) << QList<GpuReading>{} << 1;
}

void TestGpuStatsParser::nvidiaSmi()
{
    QFETCH(QByteArray, output);
    QFETCH(QList<GpuReading>, expected);
    QFETCH(int, skipped);
    QStringList skippedLines;
    const QList<GpuReading> gpus = GpuStatsParser::parseNvidiaSmi(output, &skippedLines);
    QCOMPARE(gpus.size(), expected.size());
    for (qsizetype i = 0; i < gpus.size(); ++i) {
        QCOMPARE(gpus.at(i).index, expected.at(i).index);
        QCOMPARE(gpus.at(i).memoryUsedMiB, expected.at(i).memoryUsedMiB);
        QCOMPARE(gpus.at(i).memoryTotalMiB, expected.at(i).memoryTotalMiB);
        QCOMPARE(gpus.at(i).utilizationPercent, expected.at(i).utilizationPercent);
        QCOMPARE(gpus.at(i).temperatureC, expected.at(i).temperatureC);
        QCOMPARE(gpus.at(i).vendor, u"nvidia"_s);
    }
    QCOMPARE(skippedLines.size(), skipped);
}

void TestGpuStatsParser::rocmSmi_data()
{
    QTest::addColumn<QByteArray>("output");
    QTest::addColumn<QList<GpuReading>>("expected");

    const auto amd = [](int index, std::optional<qint64> used, std::optional<qint64> total, std::optional<int> busy,
                        std::optional<int> temperature) {
        return GpuReading{index, u"amd"_s, used, total, busy, temperature};
    };
    QTest::newRow("one RX 7900 XTX")
        << QByteArray(R"j({"card0": {"Temperature (Sensor edge) (C)": "52.0", "Temperature (Sensor junction) (C)": "60.0",)j"
                      R"j( "Temperature (Sensor memory) (C)": "66.0", "GPU use (%)": "87",)j"
                      R"j( "VRAM Total Memory (B)": "25753026560", "VRAM Total Used Memory (B)": "21474836480"}})j")
        << QList<GpuReading>{amd(0, 20480, 24560, 87, 52)};
    QTest::newRow("two cards, out of order, with the system entry and a warning first")
        << QByteArray("WARNING: AMD GPU device(s) is/are in a low-power state. Check power control/runtime_status\n\n"
                      R"j({"card1": {"GPU use (%)": "0", "VRAM Total Memory (B)": "17163091968", "VRAM Total Used Memory (B)": "12288000",)j"
                      R"j( "Temperature (Sensor junction) (C)": "41.0"},)j"
                      R"j( "card0": {"GPU use (%)": "100", "VRAM Total Memory (B)": "68702699520", "VRAM Total Used Memory (B)": "68702699520",)j"
                      R"j( "Temperature (Sensor edge) (C)": "80.0"}, "system": {"Driver version": "6.7.0"}})j")
        << QList<GpuReading>{amd(0, 65520, 65520, 100, 80), amd(1, 12, 16368, 0, 41)};
    QTest::newRow("numbers as numbers, figures missing")
        << QByteArray(R"j({"card0": {"GPU use (%)": 12}})j") << QList<GpuReading>{amd(0, std::nullopt, std::nullopt, 12, std::nullopt)};
    QTest::newRow("N/A strings") << QByteArray(R"j({"card0": {"GPU use (%)": "N/A", "Temperature (Sensor edge) (C)": "N/A"}})j")
                                 << QList<GpuReading>{amd(0, std::nullopt, std::nullopt, std::nullopt, std::nullopt)};
    QTest::newRow("no GPU found") << QByteArray("ERROR: No AMD GPUs specified\n") << QList<GpuReading>{};
    QTest::newRow("broken JSON") << QByteArray(R"j({"card0": {"GPU use (%)": "1")j") << QList<GpuReading>{};
    QTest::newRow("not cards") << QByteArray(R"j({"system": {"x": "1"}, "cardX": {}, "card2": "text"})j") << QList<GpuReading>{};
}

void TestGpuStatsParser::rocmSmi()
{
    QFETCH(QByteArray, output);
    QFETCH(QList<GpuReading>, expected);
    const QList<GpuReading> gpus = GpuStatsParser::parseRocmSmi(output);
    QCOMPARE(gpus.size(), expected.size());
    for (qsizetype i = 0; i < gpus.size(); ++i)
        QVERIFY2(gpus.at(i) == expected.at(i), qPrintable(u"GPU %1 reads %2"_s.arg(i).arg(
                     QString::fromUtf8(QJsonDocument(GpuReading::toJson({gpus.at(i)})).toJson(QJsonDocument::Compact)))));
}

void TestGpuStatsParser::jsonRoundTrip()
{
    const QList<GpuReading> gpus{nvidia(0, 20871, 24576, 37, 61), nvidia(1, 4, 4096, std::nullopt, std::nullopt)};
    const QJsonArray json = GpuReading::toJson(gpus);
    QVERIFY(json.at(1).toObject().value("utilization_percent"_L1).isNull());
    QCOMPARE(json.at(0).toObject().value("memory_total_mib"_L1).toInt(), 24576);
    QCOMPARE(GpuReading::fromJson(json), gpus);
    // What a newer or older agent may send: not objects, strings for numbers.
    const QJsonArray odd{1, QJsonObject{{"memory_used_mib"_L1, u"12"_s}}};
    const QList<GpuReading> read = GpuReading::fromJson(odd);
    QCOMPARE(read.size(), 1);
    QVERIFY(!read.first().memoryUsedMiB);
}

QTEST_GUILESS_MAIN(TestGpuStatsParser)
#include "tst_gpustatsparser.moc"
