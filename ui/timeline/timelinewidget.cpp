#include "timeline/timelinewidget.h"

#include "models/inflightcounter.h"
#include "shared/statuspalette.h"
#include "shared/uiformat.h"
#include "store/clock.h"
#include "store/timelinemodel.h"
#include "timeline/requestdensity.h"

#include <QKeyEvent>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace switchyard {

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace {

constexpr int BarTop = 8;        // engine bar, from the lane's top
constexpr int BarHeight = 20;
constexpr int MarkerTop = 30;    // loads, unloads, leases
constexpr int MarkerHeight = 10;
constexpr int DensityTop = 42;   // request histogram
constexpr int DensityHeight = 20;
constexpr int MinTickPixels = 90;
constexpr double ZoomStep = 1.25;

QDateTime dateAt(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms);
}

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
    m_scale.setPlotArea(LabelWidth, std::max(1, width() - LabelWidth - 8));
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

void TimelineWidget::setEvents(TimelineModel *model)
{
    if (m_model)
        disconnect(m_model, nullptr, this, nullptr);
    m_model = model;
    if (model) {
        connect(model, &QAbstractItemModel::rowsInserted, this, qOverload<>(&QWidget::update));
        connect(model, &QAbstractItemModel::rowsRemoved, this, qOverload<>(&QWidget::update));
        connect(model, &QAbstractItemModel::modelReset, this, qOverload<>(&QWidget::update));
    }
    update();
}

void TimelineWidget::setDensity(const RequestDensity *density)
{
    m_density = density;
    update();
}

void TimelineWidget::setInFlight(const InFlightCounter *inFlight)
{
    m_inFlight = inFlight;
    update();
}

TimelineWidget::Activity TimelineWidget::activity(const QString &host, qint64 fromMs, qint64 toMs) const
{
    Activity a;
    if (m_density) {
        const RequestDensity::Count c = m_density->count(host, fromMs, toMs);
        a.requests = c.requests;
        a.errors = c.errors;
    }
    // Running requests are active from their start until now.
    if (m_inFlight && fromMs <= nowMs())
        a.requests += m_inFlight->startedBefore(host, toMs);
    return a;
}

void TimelineWidget::setHosts(const QStringList &hosts)
{
    if (hosts == m_hosts)
        return;
    m_hosts = hosts;
    updateGeometry();
    update();
}

void TimelineWidget::setCurrentEngine(const QString &host, const QString &engine)
{
    if (m_currentEngine.value(host) == engine)
        return;
    m_currentEngine.insert(host, engine);
    update(0, 0, LabelWidth, height());
}

qint64 TimelineWidget::nowMs() const
{
    return m_clock.now().toMSecsSinceEpoch();
}

void TimelineWidget::followNow()
{
    // Leave a little room right of "now", so the newest events are not on the border.
    m_scale.setEndMs(nowMs() + m_scale.spanMs() / 40);
}

void TimelineWidget::setFollowing(bool on)
{
    if (on)
        followNow();
    if (on != m_following) {
        m_following = on;
        emit followingChanged(on);
    }
    changed();
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
    syncPlotArea();
    m_scale.setEndMs(endMs);
    m_scale.setMsPerPixel(double(endMs - startMs) / m_scale.width());
    if (m_following) {
        m_following = false;
        emit followingChanged(false);
    }
    changed();
}

void TimelineWidget::zoomIn()
{
    syncPlotArea();
    const double anchor = m_following ? m_scale.xForTime(nowMs()) : m_scale.left() + m_scale.width() / 2.0;
    m_scale.zoomAround(anchor, ZoomStep);
    if (m_following)
        followNow();
    changed();
}

void TimelineWidget::zoomOut()
{
    syncPlotArea();
    const double anchor = m_following ? m_scale.xForTime(nowMs()) : m_scale.left() + m_scale.width() / 2.0;
    m_scale.zoomAround(anchor, 1.0 / ZoomStep);
    if (m_following)
        followNow();
    changed();
}

QRect TimelineWidget::laneRect(int lane) const
{
    return QRect(0, HeaderHeight + lane * LaneHeight, width(), LaneHeight);
}

QRect TimelineWidget::engineBarRect(int lane) const
{
    const QRect r = laneRect(lane);
    return QRect(m_scale.left(), r.top() + BarTop, m_scale.width(), BarHeight);
}

QRect TimelineWidget::markerRect(int lane) const
{
    const QRect r = laneRect(lane);
    return QRect(m_scale.left(), r.top() + MarkerTop, m_scale.width(), MarkerHeight);
}

QRect TimelineWidget::densityRect(int lane) const
{
    const QRect r = laneRect(lane);
    return QRect(m_scale.left(), r.top() + DensityTop, m_scale.width(), DensityHeight);
}

int TimelineWidget::laneAt(int y) const
{
    if (y < HeaderHeight)
        return -1;
    const int lane = (y - HeaderHeight) / LaneHeight;
    return lane < m_hosts.size() ? lane : -1;
}

QSize TimelineWidget::sizeHint() const
{
    return QSize(900, HeaderHeight + int(std::max<qsizetype>(1, m_hosts.size())) * LaneHeight + 2);
}

QSize TimelineWidget::minimumSizeHint() const
{
    // Every lane, always: a host the timeline cut off would look like a host with no history.
    return QSize(LabelWidth + 200, sizeHint().height());
}

void TimelineWidget::syncPlotArea()
{
    const int plotWidth = std::max(1, width() - LabelWidth - 8);
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

QList<TimelineWidget::Span> TimelineWidget::spansFor(const QString &host, qint64 fromMs, qint64 toMs) const
{
    QList<Span> spans;
    if (!m_model || toMs <= fromMs)
        return spans;
    const QList<EngineInterval> intervals = m_model->engineIntervals(host, dateAt(fromMs), dateAt(toMs));
    for (const EngineInterval &i : intervals) {
        spans.append({Span::Kind::Engine, i.start.toMSecsSinceEpoch(),
                      i.end.isValid() ? i.end.toMSecsSinceEpoch() : toMs, i.ongoing, i.engine, {}});
    }
    // Switches, downtime and leases, paired from their start and end events. The whole history
    // up to the end of the range is walked, so a lease that began long before still shows.
    std::optional<HistoryEvent> switchStart;
    std::optional<HistoryEvent> down;
    std::optional<HistoryEvent> lease;
    auto add = [&](Span::Kind kind, qint64 start, qint64 end, bool ongoing, const QString &engine, const QString &text) {
        if (end < fromMs || start > toMs)
            return;
        spans.append({kind, std::max(start, fromMs), std::min(end, toMs), ongoing, engine, text});
    };
    const QList<HistoryEvent> events = m_model->eventsBetween({}, dateAt(toMs));
    for (const HistoryEvent &e : events) {
        if (e.host != host)
            continue;
        const qint64 at = e.at.toMSecsSinceEpoch();
        switch (e.kind) {
        case HistoryEvent::Kind::SwitchStart:
            switchStart = e;
            break;
        case HistoryEvent::Kind::SwitchEnd:
        case HistoryEvent::Kind::SwitchFailed: {
            const bool failed = e.kind == HistoryEvent::Kind::SwitchFailed;
            qint64 start = switchStart ? switchStart->at.toMSecsSinceEpoch()
                                       : at - (e.duration ? e.duration->count() : 0);
            const QString text = failed ? e.detail : (switchStart ? switchStart->model : QString());
            add(failed ? Span::Kind::FailedSwitch : Span::Kind::Switch, start, at, false, e.engine, text);
            switchStart.reset();
            if (!failed && down) {
                add(Span::Kind::Down, down->at.toMSecsSinceEpoch(), at, false, {}, down->detail);
                down.reset();
            }
            break;
        }
        case HistoryEvent::Kind::HostDown:
            if (!down)
                down = e;
            break;
        case HistoryEvent::Kind::HostUp:
            if (down) {
                add(Span::Kind::Down, down->at.toMSecsSinceEpoch(), at, false, {}, down->detail);
                down.reset();
            }
            break;
        case HistoryEvent::Kind::LeaseTaken:
            lease = e;
            break;
        case HistoryEvent::Kind::LeaseReleased: {
            const qint64 start = lease ? lease->at.toMSecsSinceEpoch() : at - (e.duration ? e.duration->count() : 0);
            add(Span::Kind::Lease, start, at, false, {}, lease ? lease->detail : e.detail);
            lease.reset();
            break;
        }
        default:
            break;
        }
    }
    if (switchStart)
        add(Span::Kind::Switch, switchStart->at.toMSecsSinceEpoch(), toMs, true, switchStart->engine, switchStart->model);
    if (down)
        add(Span::Kind::Down, down->at.toMSecsSinceEpoch(), toMs, true, {}, down->detail);
    if (lease)
        add(Span::Kind::Lease, lease->at.toMSecsSinceEpoch(), toMs, true, {}, lease->detail);
    return spans;
}

QList<HistoryEvent> TimelineWidget::markersFor(const QString &host, qint64 fromMs, qint64 toMs) const
{
    QList<HistoryEvent> out;
    if (!m_model)
        return out;
    const QList<HistoryEvent> events = m_model->eventsBetween(dateAt(fromMs), dateAt(toMs));
    for (const HistoryEvent &e : events) {
        if (e.host == host && (e.kind == HistoryEvent::Kind::Load || e.kind == HistoryEvent::Kind::Unload))
            out.append(e);
    }
    return out;
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
    const int maxCount = densityMax();
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
        const QDateTime when = dateAt(t);
        QString text;
        if (step >= 24 * 3600 * 1000LL)
            text = QLocale().toString(when.date(), u"ddd d MMM"_s);
        else if (when.time() == QTime(0, 0))
            text = QLocale().toString(when.date(), u"d MMM"_s);
        else if (step < 60 * 1000)
            text = when.toString(u"HH:mm:ss"_s);
        else
            text = when.toString(u"HH:mm"_s);
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
    const QString span = UiFormat::duration(std::chrono::milliseconds(m_scale.spanMs()));
    p.drawText(QRect(8, 0, LabelWidth - 12, HeaderHeight - 2), Qt::AlignLeft | Qt::AlignBottom,
               m_following ? tr("last %1").arg(span) : span);
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

    // Label: the host, and the engine the catalog says runs now.
    QFont bold = font();
    bold.setBold(true);
    bold.setPointSizeF(font().pointSizeF() * 1.1);
    p.setFont(bold);
    p.setPen(palette().color(QPalette::Text));
    p.drawText(QRect(10, r.top() + BarTop - 2, LabelWidth - 16, BarHeight + 2), Qt::AlignLeft | Qt::AlignVCenter,
               p.fontMetrics().elidedText(host, Qt::ElideRight, LabelWidth - 16));
    p.setFont(font());
    const QString engine = m_currentEngine.value(host);
    if (!engine.isEmpty()) {
        const QColor c = StatusPalette::forEngine(engine);
        p.setPen(Qt::NoPen);
        p.setBrush(c);
        p.drawEllipse(QRectF(11, r.top() + MarkerTop + 1, 8, 8));
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(QRect(24, r.top() + MarkerTop - 4, LabelWidth - 28, 18), Qt::AlignLeft | Qt::AlignVCenter,
                   p.fontMetrics().elidedText(engine, Qt::ElideRight, LabelWidth - 28));
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
    const QList<Span> spans = spansFor(host, from, to);
    auto spanRect = [&](const Span &s, const QRect &row) {
        const double x1 = m_scale.xForTime(s.startMs);
        const double x2 = std::max(m_scale.xForTime(s.endMs), x1 + 3.0);   // even a short switch shows
        return QRectF(x1, row.top(), x2 - x1, row.height());
    };
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
        const QString label = s.engine;
        if (rect.width() > p.fontMetrics().horizontalAdvance(label) + 12) {
            p.setPen(textOn(c));
            p.drawText(rect.adjusted(6, 0, -4, 0), Qt::AlignLeft | Qt::AlignVCenter, label);
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
            const QString label = s.ongoing
                ? tr("→ %1").arg(s.engine)
                : tr("→ %1 · %2").arg(s.engine, UiFormat::duration(std::chrono::milliseconds(s.endMs - s.startMs)));
            if (rect.width() > p.fontMetrics().horizontalAdvance(label) + 10) {
                p.setPen(QColor(0x20, 0x20, 0x20));
                p.drawText(rect.adjusted(5, 0, -3, 0), Qt::AlignLeft | Qt::AlignVCenter, label);
            }
        }
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
    // Loads and unloads: diamonds.
    for (const HistoryEvent &e : markersFor(host, from, to)) {
        const double x = m_scale.xForTime(e.at.toMSecsSinceEpoch());
        const double cy = markers.center().y() + 0.5;
        QPainterPath diamond;
        diamond.moveTo(x, cy - 5);
        diamond.lineTo(x + 5, cy);
        diamond.lineTo(x, cy + 5);
        diamond.lineTo(x - 5, cy);
        diamond.closeSubpath();
        if (e.kind == HistoryEvent::Kind::Load) {
            p.setPen(QPen(palette().color(QPalette::Base), 1));
            p.setBrush(e.detail.isEmpty() ? StatusPalette::good() : StatusPalette::bad());
        } else {
            p.setPen(QPen(StatusPalette::idle(), 1.5));
            p.setBrush(palette().base());
        }
        p.drawPath(diamond);
    }
    p.restore();
}

int TimelineWidget::densityMax() const
{
    if (!m_density && !m_inFlight)
        return 0;
    const int bucket = densityBucketPixels();
    int maxCount = 0;
    for (const QString &host : m_hosts) {
        for (int x = m_scale.left(); x < m_scale.right(); x += bucket) {
            const Activity c = activity(host, m_scale.timeForX(x), m_scale.timeForX(x + bucket));
            maxCount = std::max(maxCount, c.requests);
        }
    }
    return maxCount;
}

void TimelineWidget::paintDensity(QPainter &p, int lane, int maxCount)
{
    if (maxCount <= 0)
        return;
    const QRect area = densityRect(lane);
    const QString &host = m_hosts.at(lane);
    const int bucket = densityBucketPixels();
    const QColor fill = withAlpha(palette().color(QPalette::Highlight), 120);
    const QColor errors = StatusPalette::bad();
    p.setPen(Qt::NoPen);
    const double nowX = m_scale.xForTime(nowMs());
    for (int x = m_scale.left(); x < m_scale.right() && x <= nowX; x += bucket) {
        const Activity c = activity(host, m_scale.timeForX(x), m_scale.timeForX(x + bucket));
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
    const int lane = laneAt(pos.y());
    if (lane < 0 || pos.x() < m_scale.left())
        return {};
    const QString &host = m_hosts.at(lane);
    const qint64 t = m_scale.timeForX(pos.x());
    const qint64 now = nowMs();
    const qint64 to = std::min(m_scale.endMs(), now);
    const QDateTime nowTime = dateAt(now);
    auto range = [&](qint64 a, qint64 b, bool ongoing) {
        return ongoing ? tr("%1 – now (%2)").arg(UiFormat::timeOfDay(dateAt(a), nowTime),
                                                 UiFormat::duration(std::chrono::milliseconds(b - a)))
                       : tr("%1 – %2 (%3)").arg(UiFormat::timeOfDay(dateAt(a), nowTime),
                                                UiFormat::timeOfDay(dateAt(b), nowTime),
                                                UiFormat::duration(std::chrono::milliseconds(b - a)));
    };
    const qint64 slack = qint64(4 * m_scale.msPerPixel());
    if (engineBarRect(lane).contains(pos) || markerRect(lane).contains(pos)) {
        // Markers first: they are small and on top.
        if (markerRect(lane).contains(pos)) {
            for (const HistoryEvent &e : markersFor(host, t - 2 * slack, t + 2 * slack)) {
                QString text = e.kind == HistoryEvent::Kind::Load ? tr("<b>%1</b> loaded").arg(e.model.toHtmlEscaped())
                                                                  : tr("<b>%1</b> unloaded").arg(e.model.toHtmlEscaped());
                text += u"<br>"_s + UiFormat::timeOfDay(e.at, nowTime);
                if (e.duration)
                    text += u"<br>"_s + tr("took %1").arg(UiFormat::duration(*e.duration));
                if (!e.detail.isEmpty())
                    text += u"<br>"_s + e.detail.toHtmlEscaped();
                return text;
            }
        }
        const QList<Span> spans = spansFor(host, m_scale.startMs(), to);
        const bool inMarkers = markerRect(lane).contains(pos);
        // Switches and downtime lie over engine bars: look at them first.
        for (int pass = 0; pass < 2; ++pass) {
            for (const Span &s : spans) {
                const bool overlay = s.kind != Span::Kind::Engine;
                if ((pass == 0) != overlay || (s.kind == Span::Kind::Lease) != inMarkers)
                    continue;
                if (t < s.startMs - slack || t > s.endMs + slack)
                    continue;
                switch (s.kind) {
                case Span::Kind::Engine:
                    return tr("Engine <b>%1</b> up on %2<br>%3").arg(s.engine.toHtmlEscaped(), host.toHtmlEscaped(),
                                                                     range(s.startMs, s.endMs, s.ongoing));
                case Span::Kind::Switch:
                    return (s.text.isEmpty() ? tr("Switching to <b>%1</b>").arg(s.engine.toHtmlEscaped())
                                             : tr("Switching to <b>%1</b> for %2").arg(s.engine.toHtmlEscaped(),
                                                                                      s.text.toHtmlEscaped()))
                            + u"<br>"_s + range(s.startMs, s.endMs, s.ongoing);
                case Span::Kind::FailedSwitch:
                    return tr("Switch to <b>%1</b> failed: %2").arg(s.engine.toHtmlEscaped(), s.text.toHtmlEscaped())
                            + u"<br>"_s + range(s.startMs, s.endMs, false);
                case Span::Kind::Down:
                    return tr("<b>%1</b> was down").arg(host.toHtmlEscaped())
                            + (s.text.isEmpty() ? QString() : u": "_s + s.text.toHtmlEscaped()) + u"<br>"_s
                            + range(s.startMs, s.endMs, s.ongoing);
                case Span::Kind::Lease:
                    return tr("Leased by <b>%1</b>").arg(s.text.isEmpty() ? tr("someone") : s.text.toHtmlEscaped())
                            + u"<br>"_s + range(s.startMs, s.endMs, s.ongoing);
                }
            }
        }
        return {};
    }
    if (densityRect(lane).contains(pos)) {
        const int bucket = densityBucketPixels();
        const int x0 = m_scale.left() + (pos.x() - m_scale.left()) / bucket * bucket;
        const qint64 a = m_scale.timeForX(x0);
        const qint64 b = m_scale.timeForX(x0 + bucket);
        const Activity c = activity(host, a, b);
        QString text = tr("%n request(s) active", nullptr, c.requests);
        if (c.errors)
            text += u", "_s + tr("%n failed", nullptr, c.errors);
        return text + u"<br>"_s + UiFormat::timeOfDay(dateAt(a), nowTime) + u" – "_s
                + UiFormat::timeOfDay(dateAt(b), nowTime);
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
        if (m_following) {
            m_following = false;
            emit followingChanged(false);
        }
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
    m_scale.panByPixels(dx);
    // Dragged back to now (or past it): follow again.
    const bool follow = m_scale.endMs() >= nowMs();
    if (follow)
        followNow();
    if (follow != m_following) {
        m_following = follow;
        emit followingChanged(follow);
    }
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
            if (m_following) {
                m_following = false;
                emit followingChanged(false);
            }
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
