#include "timeline/timelinewidget.h"

#include "shared/statuspalette.h"
#include "common/clock.h"
#include "store/timelinemodel.h"
#include "timeline/timelinelabels.h"
#include "timeline/timelinemarker.h"
#include "timeline/timelinetext.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace switchyard {

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace {

constexpr int BarTop = TimelineLayout::BarTop;
constexpr int BarHeight = TimelineLayout::BarHeight;
constexpr int MarkerTop = TimelineLayout::MarkerTop;
constexpr int DensityTop = TimelineLayout::DensityTop;
constexpr int DensityHeight = TimelineLayout::DensityHeight;
constexpr int MinTickPixels = 90;
constexpr int MinSwitchPixels = 40;       // the newest switch by default, at the least
constexpr int SwitchLabelPadding = 12;    // a switch's label is drawn when its bar is 10 px wider
constexpr double ZoomStep = 1.25;

QColor withAlpha(QColor c, int alpha)
{
    c.setAlpha(alpha);
    return c;
}

// Black or white, whichever reads better on the background.
QColor textOn(const QColor &background)
{
    return background.lightnessF() > 0.62 ? QColor(0x20, 0x20, 0x20) : QColor(Qt::white);
}

} // namespace

TimelineWidget::TimelineWidget(const Clock &clock, QWidget *parent)
    : QWidget(parent)
    , m_clock(clock)
{
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Minimum);
    m_scale.setPlotArea(LabelWidth, TimelineLayout::plotWidthFor(width()));
    m_scale.setSpan(DefaultSpan);
    followNow();
    connect(&m_tick, &QTimer::timeout, this, [this] {
        if (m_following)
            followNow();
        update();
    });
    updateTickInterval();
    m_tick.start();
    setAccessibleName(tr("Switch timeline"));
}

TimelineWidget::~TimelineWidget() = default;

void TimelineWidget::setHosts(const QStringList &hosts)
{
    if (hosts == m_hosts)
        return;
    m_hosts = hosts;
    updateGeometry();
    update();
}

void TimelineWidget::setCurrentEngine(const QString &host, const QString &engine, const QString &label)
{
    const std::pair<QString, QString> shown{engine, label.isEmpty() ? engine : label};
    if (m_currentEngine.value(host) == shown)
        return;
    m_currentEngine.insert(host, shown);
    update(0, 0, LabelWidth, height());
}

void TimelineWidget::setEvents(TimelineModel *model)
{
    if (m_content.events())
        disconnect(m_content.events(), nullptr, this, nullptr);
    m_content.setEvents(model);
    if (model) {
        connect(model, &QAbstractItemModel::rowsInserted, this, [this] {
            if (m_following && m_autoSpan)
                followNow();
            update();
        });
        connect(model, &QAbstractItemModel::rowsRemoved, this, qOverload<>(&QWidget::update));
        connect(model, &QAbstractItemModel::modelReset, this, qOverload<>(&QWidget::update));
    }
    update();
}

void TimelineWidget::setDensity(const RequestDensity *density)
{
    m_content.setDensity(density);
    update();
}

void TimelineWidget::setInFlight(const InFlightCounter *inFlight)
{
    m_content.setInFlight(inFlight);
    update();
}

qint64 TimelineWidget::nowMs() const
{
    return m_clock.now().toMSecsSinceEpoch();
}

void TimelineWidget::fitSpanToData()
{
    if (!m_autoSpan)
        return;
    syncPlotArea();
    // The newest switch gets room for its label on its bar, and at least MinSwitchPixels.
    int switchPixels = MinSwitchPixels;
    if (const std::optional<Span> last = m_content.newestSwitch(m_hosts))
        switchPixels = std::max(switchPixels, fontMetrics().horizontalAdvance(TimelineText::switchLabel(*last)) + SwitchLabelPadding);
    const auto span = m_content.suggestedSpan(m_hosts, nowMs(), m_scale.width(), switchPixels);
    if (span && span->count() != m_scale.spanMs())
        m_scale.setSpan(*span);
}

void TimelineWidget::followNow()
{
    fitSpanToData();
    // Leave a little room right of "now", so the newest events are not on the border.
    m_scale.setEndMs(nowMs() + m_scale.spanMs() / 40);
}

void TimelineWidget::setFollowing(bool on)
{
    if (on)
        followNow();
    setFollowFlag(on);
    changed();
}

void TimelineWidget::setFollowFlag(bool on)
{
    if (on == m_following)
        return;
    m_following = on;
    emit followingChanged(on);
}

void TimelineWidget::changed()
{
    updateTickInterval();
    update();
    emit rangeChanged();
}

void TimelineWidget::updateTickInterval()
{
    // Fast enough that "now" moves smoothly at close zoom, lazy when a pixel is minutes.
    const auto perPixel = std::chrono::milliseconds(qint64(m_scale.msPerPixel()));
    m_tick.setInterval(std::clamp<std::chrono::milliseconds>(perPixel * 2, 100ms, 1000ms));
}

void TimelineWidget::setSpan(std::chrono::milliseconds span)
{
    m_autoSpan = false;   // the user's choice from now on
    syncPlotArea();
    m_scale.setSpan(span);
    if (m_following)
        followNow();
    changed();
}

void TimelineWidget::showRange(qint64 startMs, qint64 endMs)
{
    if (endMs <= startMs)
        return;
    m_autoSpan = false;
    syncPlotArea();
    m_scale.setEndMs(endMs);
    m_scale.setMsPerPixel(double(endMs - startMs) / m_scale.width());
    setFollowFlag(false);
    changed();
}

void TimelineWidget::zoomIn()
{
    zoomBy(ZoomStep);
}

void TimelineWidget::zoomOut()
{
    zoomBy(1.0 / ZoomStep);
}

void TimelineWidget::zoomBy(double factor)
{
    // Around now while following, else around the middle.
    m_autoSpan = false;
    syncPlotArea();
    const double anchor = m_following ? m_scale.xForTime(nowMs()) : m_scale.left() + m_scale.width() / 2.0;
    m_scale.zoomAround(anchor, factor);
    if (m_following)
        followNow();
    changed();
}

TimelineLayout TimelineWidget::layout() const
{
    return TimelineLayout(width(), m_scale, int(m_hosts.size()));
}

QSize TimelineWidget::sizeHint() const
{
    return QSize(900, TimelineLayout::heightFor(int(m_hosts.size())));
}

QSize TimelineWidget::minimumSizeHint() const
{
    // Every lane, always: a host the timeline cut off would look like a host with no history.
    return QSize(LabelWidth + 200, sizeHint().height());
}

void TimelineWidget::syncPlotArea()
{
    const int plotWidth = TimelineLayout::plotWidthFor(width());
    if (plotWidth == m_scale.width() && m_scale.left() == LabelWidth)
        return;
    // Keep the span: "the last 15 minutes" stays that, in a wider or narrower window.
    const qint64 span = m_scale.spanMs();
    m_scale.setPlotArea(LabelWidth, plotWidth);
    m_scale.setSpan(std::chrono::milliseconds(span));
    if (m_following)
        followNow();
}

void TimelineWidget::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    syncPlotArea();
    emit rangeChanged();
}

void TimelineWidget::paintEvent(QPaintEvent *)
{
    syncPlotArea();
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    if (m_following)
        followNow();
    const qint64 from = m_scale.startMs();
    const qint64 now = nowMs();
    // Nothing is drawn into the future.
    const qint64 to = std::min(m_scale.endMs(), now);

    paintHeader(p);
    if (m_hosts.isEmpty()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect().adjusted(0, HeaderHeight, 0, 0), Qt::AlignCenter, tr("No hosts configured"));
        return;
    }
    const int maxCount = m_content.maxActivity(m_hosts, m_scale, TimelineLayout::DensityBucketPixels, now);
    for (int lane = 0; lane < m_hosts.size(); ++lane) {
        paintLane(p, lane, from, to);
        paintDensity(p, lane, maxCount);
    }
    // "Now", across every lane.
    const double nowX = m_scale.xForTime(now);
    if (nowX >= m_scale.left() && nowX <= m_scale.right()) {
        p.setPen(QPen(palette().color(QPalette::Highlight), 1.5));
        p.drawLine(QPointF(nowX, HeaderHeight - 4), QPointF(nowX, laneRect(int(m_hosts.size()) - 1).bottom()));
    }
}

void TimelineWidget::paintHeader(QPainter &p)
{
    const QRect header(0, 0, width(), HeaderHeight);
    p.fillRect(header, palette().window());
    const int utcOffset = m_clock.now().offsetFromUtc();
    const qint64 step = m_scale.tickStepMs(MinTickPixels);
    const QList<qint64> ticks = m_scale.ticks(MinTickPixels, utcOffset);
    const int bottom = m_hosts.isEmpty() ? height() : laneRect(int(m_hosts.size()) - 1).bottom();
    QFont small = font();
    small.setPointSizeF(font().pointSizeF() * 0.9);
    p.setFont(small);
    const QColor grid = withAlpha(palette().color(QPalette::Text), 28);
    const QColor label = palette().color(QPalette::PlaceholderText);
    for (qint64 t : ticks) {
        const double x = m_scale.xForTime(t);
        p.setPen(grid);
        p.drawLine(QPointF(x, HeaderHeight), QPointF(x, bottom));
        const QString text = TimelineText::tickLabel(t, step);
        // A label that would run under the lane names or off the right edge is left out.
        const double half = p.fontMetrics().horizontalAdvance(text) / 2.0 + 2;
        if (x - half < LabelWidth || x + half > width())
            continue;
        p.setPen(label);
        p.drawText(QRectF(x - 60, 0, 120, HeaderHeight - 2), Qt::AlignHCenter | Qt::AlignBottom, text);
    }
    // The left column names the lanes; the header over it says what the range is.
    p.fillRect(QRect(0, 0, LabelWidth - 4, HeaderHeight), palette().window());
    p.setPen(label);
    p.drawText(QRect(8, 0, LabelWidth - 12, HeaderHeight - 2), Qt::AlignLeft | Qt::AlignBottom,
               TimelineText::spanLabel(m_scale.spanMs(), m_following));
    p.setPen(withAlpha(palette().color(QPalette::Text), 60));
    p.drawLine(0, HeaderHeight - 1, width(), HeaderHeight - 1);
    p.setFont(font());
}

void TimelineWidget::paintLane(QPainter &p, int lane, qint64 from, qint64 to)
{
    const QRect r = laneRect(lane);
    const QString &host = m_hosts.at(lane);
    if (lane % 2)
        p.fillRect(QRect(0, r.top(), width(), r.height()), withAlpha(palette().color(QPalette::AlternateBase), 255));
    p.setPen(withAlpha(palette().color(QPalette::Text), 30));
    p.drawLine(0, r.bottom(), width(), r.bottom());

    // Label: the host, and the engine the catalog says runs now (during a switch, the switch).
    QFont bold = font();
    bold.setBold(true);
    bold.setPointSizeF(font().pointSizeF() * 1.1);
    p.setFont(bold);
    p.setPen(palette().color(QPalette::Text));
    p.drawText(QRect(10, r.top() + BarTop - 2, LabelWidth - 16, BarHeight + 2), Qt::AlignLeft | Qt::AlignVCenter,
               p.fontMetrics().elidedText(host, Qt::ElideRight, LabelWidth - 16));
    p.setFont(font());
    const auto [engine, label] = m_currentEngine.value(host);
    if (!label.isEmpty()) {
        const QColor c = StatusPalette::forEngine(engine);
        p.setPen(Qt::NoPen);
        p.setBrush(c);
        p.drawEllipse(QRectF(11, r.top() + MarkerTop + 1, 8, 8));
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(QRect(24, r.top() + MarkerTop - 4, LabelWidth - 28, 18), Qt::AlignLeft | Qt::AlignVCenter,
                   p.fontMetrics().elidedText(label, Qt::ElideRight, LabelWidth - 28));
    }
    p.setPen(palette().color(QPalette::PlaceholderText));
    QFont small = font();
    small.setPointSizeF(font().pointSizeF() * 0.85);
    p.setFont(small);
    p.drawText(QRect(24, r.top() + DensityTop, LabelWidth - 28, DensityHeight), Qt::AlignLeft | Qt::AlignVCenter,
               tr("requests"));
    p.setFont(font());

    p.save();
    p.setClipRect(QRect(m_scale.left(), r.top(), m_scale.width() + 1, r.height()));
    p.setRenderHint(QPainter::Antialiasing);
    const QRect bar = engineBarRect(lane);
    const QList<Span> spans = m_content.spans(host, from, to);
    const QList<LabelBeside> beside = labelsBeside(spans, bar);
    QList<QRectF> besideFrames;
    for (const LabelBeside &label : beside)
        besideFrames.append(label.frame);
    bool anyEngine = false;
    for (const Span &s : spans) {
        if (s.kind != Span::Kind::Engine)
            continue;
        anyEngine = true;
        const QColor c = StatusPalette::forEngine(s.engine);
        const QRectF rect = spanRect(s, bar);
        p.setPen(Qt::NoPen);
        p.setBrush(c);
        p.drawRoundedRect(rect, 3, 3);
        // Its name, past a switch's label drawn over the bar's start.
        const QString label = s.engine;
        const qreal start = TimelineLabels::labelStart(rect, p.fontMetrics().horizontalAdvance(label), besideFrames);
        if (start >= 0) {
            p.setPen(textOn(c));
            p.drawText(QRectF(start, rect.top(), rect.right() - 4 - start, rect.height()), Qt::AlignLeft | Qt::AlignVCenter,
                       label);
        }
    }
    // Sleep: a quiet grey band, neither an engine's colour nor the failures' red.
    for (const Span &s : spans) {
        if (s.kind != Span::Kind::Sleep)
            continue;
        const QRectF rect = spanRect(s, bar);
        const QColor c = StatusPalette::idle();
        p.setPen(Qt::NoPen);
        p.setBrush(withAlpha(c, 55));
        p.drawRoundedRect(rect, 3, 3);
        p.setBrush(QBrush(withAlpha(c, 120), Qt::Dense6Pattern));
        p.drawRoundedRect(rect, 3, 3);
        const QString label = tr("asleep");
        if (rect.width() > p.fontMetrics().horizontalAdvance(label) + 10) {
            p.setPen(palette().color(QPalette::PlaceholderText));
            p.drawText(rect.adjusted(5, 0, -3, 0), Qt::AlignLeft | Qt::AlignVCenter, label);
        }
    }
    for (const Span &s : spans) {
        if (s.kind != Span::Kind::Switch && s.kind != Span::Kind::FailedSwitch && s.kind != Span::Kind::Down)
            continue;
        const QRectF rect = spanRect(s, bar);
        const QColor c = s.kind == Span::Kind::Switch ? StatusPalette::switching() : StatusPalette::bad();
        p.setPen(Qt::NoPen);
        p.setBrush(s.kind == Span::Kind::Down ? withAlpha(c, 70) : QBrush(c));
        p.drawRoundedRect(rect, 3, 3);
        p.setBrush(QBrush(withAlpha(c.darker(140), s.kind == Span::Kind::Down ? 140 : 110), Qt::BDiagPattern));
        p.drawRoundedRect(rect, 3, 3);
        if (s.kind == Span::Kind::Switch) {
            const QString label = TimelineText::switchLabel(s);
            if (rect.width() > p.fontMetrics().horizontalAdvance(label) + 10) {
                p.setPen(QColor(0x20, 0x20, 0x20));
                p.drawText(rect.adjusted(5, 0, -3, 0), Qt::AlignLeft | Qt::AlignVCenter, label);
            }
        }
    }
    // Switchyard was not running: nothing is known, so the lane is left empty but for a faint
    // hatching over its bar and marker rows.
    for (const Span &s : spans) {
        if (s.kind != Span::Kind::Unobserved)
            continue;
        const QRectF rect = spanRect(s, bar.united(markerRect(lane)));
        p.setPen(Qt::NoPen);
        p.setBrush(palette().base());
        p.drawRect(rect);
        p.setBrush(QBrush(withAlpha(palette().color(QPalette::PlaceholderText), 90), Qt::FDiagPattern));
        p.drawRect(rect);
        const QString label = tr("not running");
        if (rect.width() > p.fontMetrics().horizontalAdvance(label) + 10) {
            p.setPen(palette().color(QPalette::PlaceholderText));
            p.drawText(spanRect(s, bar).adjusted(5, 0, -3, 0), Qt::AlignLeft | Qt::AlignVCenter, label);
        }
    }
    // A narrow switch's label beside it: a framed tag in the switch's colour, so it reads as a
    // label and not as more of the switch.
    for (const LabelBeside &label : beside) {
        p.setPen(QPen(StatusPalette::switching().darker(120), 1.2));
        p.setBrush(withAlpha(palette().color(QPalette::Base), 235));
        p.drawRoundedRect(label.frame.adjusted(0.5, 1.5, -0.5, -1.5), 3, 3);
        p.setPen(palette().color(QPalette::Text));
        p.drawText(label.frame.adjusted(TimelineLabels::Padding, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter, label.text);
    }
    if (!anyEngine && spans.isEmpty()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(bar, Qt::AlignCenter, tr("no engine history in this range"));
    }
    // Leases: a band in the marker row.
    const QRect markers = markerRect(lane);
    for (const Span &s : spans) {
        if (s.kind != Span::Kind::Lease)
            continue;
        QRectF rect = spanRect(s, markers);
        rect.adjust(0, 2, 0, -2);
        p.setPen(Qt::NoPen);
        p.setBrush(StatusPalette::lease());
        p.drawRoundedRect(rect, 2, 2);
    }
    // Loads and unloads: diamonds; prompt-cache saves and restores: squares.
    for (const HistoryEvent &e : m_content.markers(host, from, to))
        paintTimelineMarker(p, palette(), e, QPointF(m_scale.xForTime(e.at.toMSecsSinceEpoch()), markers.center().y() + 0.5));
    p.restore();
}

QRectF TimelineWidget::spanRect(const Span &s, const QRect &row) const
{
    const double x1 = m_scale.xForTime(s.startMs);
    const double x2 = std::max(m_scale.xForTime(s.endMs), x1 + 3.0);   // even a short switch shows
    return QRectF(x1, row.top(), x2 - x1, row.height());
}

QList<TimelineWidget::LabelBeside> TimelineWidget::labelsBeside(int lane) const
{
    if (lane < 0 || lane >= m_hosts.size())
        return {};
    const qint64 to = std::min(m_scale.endMs(), nowMs());
    return labelsBeside(m_content.spans(m_hosts.at(lane), m_scale.startMs(), to), engineBarRect(lane));
}

QList<TimelineWidget::LabelBeside> TimelineWidget::labelsBeside(const QList<Span> &spans, const QRect &bar) const
{
    // The switches whose label does not fit on their bar, newest first: it has the first pick.
    QList<Span> narrow;
    QList<QRectF> obstacles;
    for (const Span &s : spans) {
        if (s.kind == Span::Kind::Engine || s.kind == Span::Kind::Lease)
            continue;
        obstacles.append(spanRect(s, bar));
        if (s.kind == Span::Kind::Switch
            && spanRect(s, bar).width() <= fontMetrics().horizontalAdvance(TimelineText::switchLabel(s)) + 10)
            narrow.append(s);
    }
    std::stable_sort(narrow.begin(), narrow.end(), [](const Span &a, const Span &b) { return a.startMs > b.startMs; });
    QList<TimelineLabels::Bar> bars;
    for (const Span &s : std::as_const(narrow))
        bars.append({spanRect(s, bar), qreal(fontMetrics().horizontalAdvance(TimelineText::switchLabel(s)))});
    // Not past the plot's edge, nor across "now" into the empty future.
    const qreal right = std::min<qreal>(m_scale.right(), m_scale.xForTime(nowMs()) - 2);
    const QList<QRectF> frames = TimelineLabels::place(bars, obstacles, m_scale.left(), right);
    QList<LabelBeside> out;
    for (qsizetype i = 0; i < narrow.size(); ++i) {
        if (!frames.at(i).isNull())
            out.append({narrow.at(i), TimelineText::switchLabel(narrow.at(i)), bars.at(i).rect, frames.at(i)});
    }
    return out;
}

void TimelineWidget::paintDensity(QPainter &p, int lane, int maxCount)
{
    if (maxCount <= 0)
        return;
    const QRect area = densityRect(lane);
    const QString &host = m_hosts.at(lane);
    const int bucket = TimelineLayout::DensityBucketPixels;
    const QColor fill = withAlpha(palette().color(QPalette::Highlight), 120);
    const QColor errors = StatusPalette::bad();
    p.setPen(Qt::NoPen);
    const qint64 now = nowMs();
    const double nowX = m_scale.xForTime(now);
    for (int x = m_scale.left(); x < m_scale.right() && x <= nowX; x += bucket) {
        const TimelineContent::Activity c = m_content.activity(host, m_scale.timeForX(x), m_scale.timeForX(x + bucket), now);
        if (c.requests == 0)
            continue;
        // At least 2 px, so one request in a quiet hour is still seen.
        const int h = std::max(2, int(std::lround(double(area.height()) * c.requests / maxCount)));
        p.fillRect(QRect(x, area.bottom() - h + 1, bucket, h), fill);
        if (c.errors > 0) {
            const int eh = std::max(2, h * c.errors / c.requests);
            p.fillRect(QRect(x, area.bottom() - eh + 1, bucket, eh), errors);
        }
    }
}

QString TimelineWidget::tooltipAt(const QPoint &pos) const
{
    const TimelineLayout rows = layout();
    const int lane = rows.laneAt(pos.y());
    if (lane < 0 || pos.x() < m_scale.left())
        return {};
    const QString &host = m_hosts.at(lane);
    const qint64 t = m_scale.timeForX(pos.x());
    const qint64 now = nowMs();
    const qint64 slack = qint64(4 * m_scale.msPerPixel());
    const bool inMarkers = rows.markerRect(lane).contains(pos);
    // A switch's label beside its bar says what that switch was, not what lies under the label.
    for (const LabelBeside &label : labelsBeside(lane)) {
        if (label.frame.contains(pos))
            return TimelineText::spanTooltip(label.span, host, now);
    }
    if (rows.engineBarRect(lane).contains(pos) || inMarkers) {
        // Markers first: they are small and on top.
        if (const std::optional<HistoryEvent> marker = inMarkers ? m_content.markerAt(host, t, slack) : std::nullopt)
            return TimelineText::markerTooltip(*marker, now);
        const qint64 to = std::min(m_scale.endMs(), now);
        const std::optional<Span> span = TimelineContent::spanAt(m_content.spans(host, m_scale.startMs(), to), t,
                                                                 slack, inMarkers);
        return span ? TimelineText::spanTooltip(*span, host, now) : QString();
    }
    if (rows.densityRect(lane).contains(pos)) {
        const int x0 = rows.densityBucketLeft(pos.x());
        const qint64 a = m_scale.timeForX(x0);
        const qint64 b = m_scale.timeForX(x0 + TimelineLayout::DensityBucketPixels);
        return TimelineText::activityTooltip(m_content.activity(host, a, b, now), a, b, now);
    }
    return {};
}

bool TimelineWidget::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        const QString text = tooltipAt(help->pos());
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(event);
}

void TimelineWidget::wheelEvent(QWheelEvent *event)
{
    const QPoint delta = event->angleDelta();
    const bool pan = event->modifiers().testFlag(Qt::ShiftModifier) || std::abs(delta.x()) > std::abs(delta.y());
    if (pan) {
        const int d = std::abs(delta.x()) > std::abs(delta.y()) ? delta.x() : delta.y();
        m_scale.panByPixels(d / 120.0 * m_scale.width() / 10.0);
        setFollowFlag(false);
    } else {
        const double factor = std::pow(ZoomStep, delta.y() / 120.0);
        const double anchor = m_following ? m_scale.xForTime(nowMs()) : event->position().x();
        m_scale.zoomAround(anchor, factor);
        if (m_following)
            followNow();
    }
    changed();
    event->accept();
}

void TimelineWidget::mousePressEvent(QMouseEvent *event)
{
    if (event->button() == Qt::LeftButton) {
        m_dragFrom = event->position().toPoint();
        setCursor(Qt::ClosedHandCursor);
    }
    QWidget::mousePressEvent(event);
}

void TimelineWidget::mouseMoveEvent(QMouseEvent *event)
{
    if (!m_dragFrom)
        return;
    const QPoint pos = event->position().toPoint();
    const int dx = pos.x() - m_dragFrom->x();
    if (dx == 0)
        return;
    m_dragFrom = pos;
    m_autoSpan = false;
    m_scale.panByPixels(dx);
    // Dragged back to now (or past it): follow again.
    const bool follow = m_scale.endMs() >= nowMs();
    if (follow)
        followNow();
    setFollowFlag(follow);
    changed();
}

void TimelineWidget::mouseReleaseEvent(QMouseEvent *event)
{
    if (event->button() == Qt::LeftButton && m_dragFrom) {
        m_dragFrom.reset();
        unsetCursor();
    }
    QWidget::mouseReleaseEvent(event);
}

void TimelineWidget::mouseDoubleClickEvent(QMouseEvent *event)
{
    if (event->button() == Qt::LeftButton)
        setFollowing(true);
}

void TimelineWidget::keyPressEvent(QKeyEvent *event)
{
    switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomIn();
        break;
    case Qt::Key_Minus:
        zoomOut();
        break;
    case Qt::Key_Left:
    case Qt::Key_Right:
        m_scale.panByPixels((event->key() == Qt::Key_Left ? 1 : -1) * m_scale.width() / 10.0);
        if (m_scale.endMs() >= nowMs()) {
            setFollowing(true);
        } else {
            setFollowFlag(false);
            changed();
        }
        break;
    case Qt::Key_End:
        setFollowing(true);
        break;
    case Qt::Key_1:
        setSpan(5min);
        break;
    case Qt::Key_2:
        setSpan(1h);
        break;
    case Qt::Key_3:
        setSpan(24h);
        break;
    default:
        QWidget::keyPressEvent(event);
        return;
    }
    event->accept();
}

} // namespace switchyard
