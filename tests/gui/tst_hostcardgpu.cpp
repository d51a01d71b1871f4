// The host card's GPU row (issue 22, "GPU at a glance"): what a host's agent reports reaches
// the card through the relay's GpuBoard and HostTableModel; a host without one has no row.
#include "engines/gpuboard.h"
#include "guifleet.h"
#include "models/hosttablemodel.h"
#include "window/hostcarddelegate.h"

#include <QApplication>
#include <QSignalSpy>
#include <QStyleOptionViewItem>

using namespace switchyard;
using namespace switchyard::test;
using namespace Qt::StringLiterals;

class TstHostCardGpu : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void gpuRowFromTheAgentsFigures();
};

void TstHostCardGpu::gpuRowFromTheAgentsFigures()
{
    GuiFleet fleet;
    QVERIFY(fleet.start());
    HostTableModel hosts;
    hosts.setService(fleet.service());
    const QModelIndex h1 = hosts.index(hosts.rowOf(u"h1"_s));
    const QModelIndex h2 = hosts.index(hosts.rowOf(u"h2"_s));
    SystemClock clock;
    HostCardDelegate delegate(clock);
    QStyleOptionViewItem option;
    option.font = QApplication::font();

    // No agent figures: no row, and the card keeps its height.
    QCOMPARE(HostCardDelegate::gpuLine(h1), QString());
    const int plainHeight = delegate.sizeHint(option, h1).height();

    QSignalSpy changed(&hosts, &QAbstractItemModel::dataChanged);
    fleet.service()->gpus()->set(u"h1"_s, {GpuReading{0, u"nvidia"_s, 20582, 24576, 37, 61}});
    QCOMPARE(changed.size(), 1);
    QCOMPARE(changed.first().at(0).toModelIndex(), h1);
    QCOMPARE(changed.first().at(2).value<QList<int>>(), QList<int>{HostTableModel::GpusRole});
    QCOMPARE(HostCardDelegate::gpuLine(h1), u"GPU: 20.1 of 24.0 GiB · 37% busy · 61 °C"_s);
    QCOMPARE(HostCardDelegate::gpuLine(h2), QString());
    // One card with a GPU row: every card (they share a height) makes room for it.
    QVERIFY(delegate.sizeHint(option, h2).height() > plainHeight);

    // Two GPUs read as one box; a figure the tool does not give is left out.
    fleet.service()->gpus()->set(u"h2"_s, {GpuReading{0, u"nvidia"_s, 1024, 24576, 90, 70},
                                           GpuReading{1, u"nvidia"_s, 2048, 24576, 10, 74}});
    QCOMPARE(HostCardDelegate::gpuLine(h2), u"2 GPUs: 3.0 of 48.0 GiB · 50% busy · up to 74 °C"_s);
    fleet.service()->gpus()->set(u"h2"_s, {GpuReading{0, u"nvidia"_s, 512, 4096, std::nullopt, std::nullopt}});
    QCOMPARE(HostCardDelegate::gpuLine(h2), u"GPU: 0.5 of 4.0 GiB"_s);

    // The agent stops reporting (tool removed): the row goes.
    fleet.service()->gpus()->set(u"h1"_s, {});
    fleet.service()->gpus()->set(u"h2"_s, {});
    QCOMPARE(HostCardDelegate::gpuLine(h1), QString());
    QCOMPARE(delegate.sizeHint(option, h1).height(), plainHeight);
}

QTEST_MAIN(TstHostCardGpu)
#include "tst_hostcardgpu.moc"
