#pragma once

#include "timeline/timelinecontent.h"
#include "timeline/timelinelayout.h"
#include "timeline/timelinescale.h"

#include <QHash>
#include <QStringList>
#include <QTimer>
#include <QWidget>

#include <chrono>
#include <optional>
#include <utility>

namespace switchyard {

class Clock;
class InFlightCounter;
class RequestDensity;
class TimelineModel;

// The switch timeline: one lane per host over time. Each lane shows which engine was up (a
// coloured bar per engine), engine switches and how long they took (amber, hatched; red when
// one failed), times the host was down, model loads and unloads (diamonds), leases (a purple
// band) and request density (a histogram, failures in red); a time Switchyard did not run is an
// empty, hatched gap. A switch too short for its label on its bar has it beside the bar. It reads the TimelineModel, which holds the store's history, so it shows
// the past as well as now.
//
// Mouse: wheel zooms around the pointer, shift+wheel or dragging pans, double-click follows
// now again. Keys: + and - zoom, Left and Right pan, End follows now, 1/2/3 show 5 min, 1 h,
// 24 h. Hovering anything explains it in a tooltip.
//
// What a lane holds and where it goes are TimelineContent's and TimelineLayout's; this class
// paints them, takes the input and shows the tooltips.
class TimelineWidget final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TimelineWidget)

public:
    static constexpr int HeaderHeight = TimelineLayout::HeaderHeight;
    static constexpr int LaneHeight = TimelineLayout::LaneHeight;
    static constexpr int LabelWidth = TimelineLayout::LabelWidth;
    static constexpr std::chrono::milliseconds DefaultSpan{std::chrono::minutes(15)};

    // The clock says what "now" is; it must outlive the widget.
    explicit TimelineWidget(const Clock &clock, QWidget *parent = nullptr);
    ~TimelineWidget() override;

    void setEvents(TimelineModel *model);
    // Not owned; call update() after adding to it (the owner batches that).
    void setDensity(const RequestDensity *density);
    // Requests still running count as active up to now (the density only has finished ones).
    void setInFlight(const InFlightCounter *inFlight);
    void setHosts(const QStringList &hosts);
    QStringList hosts() const { return m_hosts; }
    // The engine each lane's label shows as current, from the catalog, and the label's text
    // (during a switch what happens, TimelineText::laneEngine; empty: the engine's name). The
    // dot takes the engine's colour.
    void setCurrentEngine(const QString &host, const QString &engine, const QString &label = {});
    QString engineLabel(const QString &host) const { return m_currentEngine.value(host).second; }

    const TimelineScale &scale() const { return m_scale; }
    void setSpan(std::chrono::milliseconds span);
    // Shows the span ending at endMs and stops following now.
    void showRange(qint64 startMs, qint64 endMs);
    bool isFollowing() const { return m_following; }
    // Until the user picks a span (zoom, a preset, a drag), the span follows the data: see
    // TimelineScale::suggestedSpan() over the newest events and the newest switch.
    bool isAutoSpan() const { return m_autoSpan; }
    void setFollowing(bool on);
    void zoomIn();
    void zoomOut();

    // Lane geometry, shared by painting, hit-testing and tests.
    QRect laneRect(int lane) const { return layout().laneRect(lane); }
    QRect engineBarRect(int lane) const { return layout().engineBarRect(lane); }
    QRect markerRect(int lane) const { return layout().markerRect(lane); }
    QRect densityRect(int lane) const { return layout().densityRect(lane); }

    // The label of a switch whose bar is too narrow for it, drawn beside the bar instead
    // (TimelineLabels; issue 30: a 3 s switch at the 5 min floor): its text and its frame.
    struct LabelBeside
    {
        TimelineContent::Span span;
        QString text;
        QRectF bar;
        QRectF frame;
    };
    QList<LabelBeside> labelsBeside(int lane) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

Q_SIGNALS:
    void followingChanged(bool following);
    void rangeChanged();

protected:
    bool event(QEvent *event) override;
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;

private:
    using Span = TimelineContent::Span;

    qint64 nowMs() const;
    TimelineLayout layout() const;
    void syncPlotArea();
    void followNow();
    void fitSpanToData();
    // Sets following without moving the range; says so when it changes.
    void setFollowFlag(bool on);
    void zoomBy(double factor);
    void updateTickInterval();
    void changed();
    QString tooltipAt(const QPoint &pos) const;

    // A span's rect in a row; a short switch is at least 3 px wide, so it shows.
    QRectF spanRect(const Span &span, const QRect &row) const;
    QList<LabelBeside> labelsBeside(const QList<Span> &spans, const QRect &bar) const;

    void paintHeader(QPainter &p);
    void paintLane(QPainter &p, int lane, qint64 fromMs, qint64 toMs);
    void paintDensity(QPainter &p, int lane, int maxCount);

    const Clock &m_clock;
    TimelineContent m_content;
    QStringList m_hosts;
    QHash<QString, std::pair<QString, QString>> m_currentEngine;   // host: engine, label
    TimelineScale m_scale;
    bool m_following = true;
    bool m_autoSpan = true;
    std::optional<QPoint> m_dragFrom;
    QTimer m_tick;
};

} // namespace switchyard
