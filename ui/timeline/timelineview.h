#pragma once

#include "journal/requestrecord.h"
#include "timeline/requestdensity.h"

#include <QPointer>
#include <QTimer>
#include <QWidget>

class QLabel;
class QScrollArea;
class QToolButton;

namespace switchyard {

class Clock;
class HistoryStore;
class HostTableModel;
class InFlightCounter;
class TimelineModel;
class TimelineWidget;

// The switch timeline with its controls (span presets, zoom, follow now) and a legend. Feeds
// the widget: host events into a TimelineModel and request arrivals into a RequestDensity,
// first from the store's history, then live.
class TimelineView final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TimelineView)

public:
    static constexpr std::chrono::hours EventHistory{24 * 7};
    static constexpr std::chrono::hours RequestHistory{24};

    TimelineView(const Clock &clock, HostTableModel *hosts, QWidget *parent = nullptr);
    ~TimelineView() override;

    void setHistory(switchyard::HistoryStore *store);
    void setInFlight(InFlightCounter *inFlight);
    TimelineWidget *timeline() const { return m_timeline; }
    TimelineModel *events() const { return m_events; }
    const RequestDensity &density() const { return m_density; }
    QLabel *legend() const { return m_legend; }
    // The colour the legend shows for an engine name or for "switch", "down", "asleep",
    // "load", "unload", "lease", "gap" (Switchyard not running): the one the timeline paints it in.
    QColor legendColor(const QString &what) const;

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void syncHosts();
    void updateLegend();
    // The legend on one line where the row has room, else broken between its items.
    void fitLegend();
    void addToDensity(const switchyard::RequestRecord &record);

    const Clock &m_clock;
    HostTableModel *m_hosts;
    TimelineModel *m_events;
    RequestDensity m_density;
    TimelineWidget *m_timeline;
    QScrollArea *m_lanes = nullptr;   // the lanes scroll in a short window
    QToolButton *m_follow;
    QLabel *m_legend;
    QStringList m_engines;   // every host's engines, in order of first appearance
    QStringList m_legendItems;   // as rich text, and as the words they show (to measure)
    QStringList m_legendWords;
    QPointer<HistoryStore> m_store;
    QTimer m_densityRepaint;
};

} // namespace switchyard
