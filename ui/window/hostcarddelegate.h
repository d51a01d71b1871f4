#pragma once

#include <QStyledItemDelegate>

namespace switchyard {

class Clock;

// Paints a HostTableModel row as a card: name and state, engine and models, URL, round trip,
// last poll and requests in flight, and the last error or the lease.
class HostCardDelegate final : public QStyledItemDelegate
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HostCardDelegate)

public:
    static constexpr int CardWidth = 330;

    explicit HostCardDelegate(const Clock &clock, QObject *parent = nullptr);

    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;

private:
    const Clock &m_clock;
};

} // namespace switchyard
