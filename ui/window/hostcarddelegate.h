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
    static constexpr int CardWidth = 330;      // the narrowest a card gets
    static constexpr int MaxCardWidth = 640;   // a wide window widens the cards up to this

    // The width the view gives every card: its row filled, see HostsView.
    void setCardWidth(int width) { m_cardWidth = width; }
    int cardWidth() const { return m_cardWidth; }

    explicit HostCardDelegate(const Clock &clock, QObject *parent = nullptr);

    // The card's lines, as painted (for tests and the accessible text): what runs (or what it
    // changes from and to, for how long), how it answers, and the last line's word.
    static QString engineLine(const QModelIndex &index, const QDateTime &now);
    static QString factsLine(const QModelIndex &index, const QDateTime &now);
    static QString detailLine(const QModelIndex &index, const QDateTime &now);
    // The GPUs its agent reports ("GPU: 20.1 of 24.0 GiB · 37% busy · 61 °C"); empty without.
    static QString gpuLine(const QModelIndex &index);

    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;

private:
    const Clock &m_clock;
    int m_cardWidth = CardWidth;
};

} // namespace switchyard
