#include "timeline/timelineview.h"

#include "models/hosttablemodel.h"
#include "models/inflightcounter.h"
#include "shared/statuspalette.h"
#include "common/clock.h"
#include "store/historystore.h"
#include "store/requestlogmodel.h"
#include "store/timelinemodel.h"
#include "timeline/timelinelayout.h"
#include "timeline/timelinetext.h"
#include "timeline/timelinewidget.h"

#include <QButtonGroup>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QToolButton>
#include <QVBoxLayout>

#include <limits>

namespace switchyard {

namespace {

// A scroll area as tall as all the lanes want. QScrollArea keeps the first size hint its widget
// gave, before the hosts were known (one lane), and the window then gave the timeline one lane.
class LanesArea final : public QScrollArea
{
public:
    using QScrollArea::QScrollArea;

    QSize sizeHint() const override
    {
        const QSize lanes = widget() ? widget()->sizeHint() : QSize();
        return lanes + QSize(2 * frameWidth(), 2 * frameWidth());
    }
};

} // namespace

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

TimelineView::TimelineView(const Clock &clock, HostTableModel *hosts, QWidget *parent)
    : QWidget(parent)
    , m_clock(clock)
    , m_hosts(hosts)
    , m_events(new TimelineModel(this))
    , m_timeline(new TimelineWidget(clock, this))
    , m_follow(new QToolButton(this))
    , m_legend(new QLabel(this))
{
    m_timeline->setEvents(m_events);
    m_timeline->setDensity(&m_density);
    connect(hosts, &QAbstractItemModel::modelReset, this, &TimelineView::syncHosts);
    connect(hosts, &QAbstractItemModel::dataChanged, this, &TimelineView::syncHosts);
    connect(hosts, &QAbstractItemModel::rowsInserted, this, &TimelineView::syncHosts);
    syncHosts();

    // Span presets, zoom, follow.
    auto *bar = new QHBoxLayout;
    bar->setContentsMargins(0, 0, 0, 0);
    bar->setSpacing(2);
    auto addButton = [&](const QString &text, const QString &tip) {
        auto *b = new QToolButton(this);
        b->setText(text);
        b->setToolTip(tip);
        b->setAutoRaise(true);
        bar->addWidget(b);
        return b;
    };
    const struct
    {
        const char *label;
        std::chrono::milliseconds span;
    } presets[] = {{QT_TR_NOOP("5 min"), 5min}, {QT_TR_NOOP("1 h"), 1h}, {QT_TR_NOOP("24 h"), 24h}};
    for (const auto &preset : presets) {
        QToolButton *b = addButton(tr(preset.label), tr("Show the last %1").arg(tr(preset.label)));
        const auto span = preset.span;
        connect(b, &QToolButton::clicked, this, [this, span] {
            m_timeline->setSpan(span);
            m_timeline->setFollowing(true);
        });
    }
    QToolButton *zoomIn = addButton(u"+"_s, tr("Zoom in (+, or the mouse wheel)"));
    connect(zoomIn, &QToolButton::clicked, m_timeline, &TimelineWidget::zoomIn);
    QToolButton *zoomOut = addButton(u"−"_s, tr("Zoom out (-, or the mouse wheel)"));
    connect(zoomOut, &QToolButton::clicked, m_timeline, &TimelineWidget::zoomOut);
    m_follow->setText(tr("Now"));
    m_follow->setCheckable(true);
    m_follow->setAutoRaise(true);
    m_follow->setChecked(m_timeline->isFollowing());
    m_follow->setToolTip(tr("Follow the present (End, or double-click the timeline)"));
    bar->addWidget(m_follow);
    connect(m_follow, &QToolButton::toggled, m_timeline, &TimelineWidget::setFollowing);
    connect(m_timeline, &TimelineWidget::followingChanged, m_follow, &QToolButton::setChecked);

    // Legend, in the timeline's own colours: the engines' from the hosts (see syncHosts). It
    // takes the rest of the row, right-aligned, and breaks between its items where the row is
    // too short for it (the German one at 1000 px was cut off after "Reserv"). Broken by
    // fitLegend(), not by QLabel's word wrap: the splitter asks a minimum height, and a
    // wrapping label's says one line.
    m_legend->setTextFormat(Qt::RichText);
    m_legend->setForegroundRole(QPalette::PlaceholderText);
    m_legend->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    bar->addWidget(m_legend, 1);
    updateLegend();

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(bar);
    // Every lane is drawn (the widget's minimum says so); in a short window they scroll, with a
    // scroll bar that says more are there, instead of taking the room of the request tables.
    m_lanes = new LanesArea(this);
    m_lanes->setWidget(m_timeline);
    m_lanes->setWidgetResizable(true);
    m_lanes->setFrameShape(QFrame::NoFrame);
    m_lanes->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_lanes->setMinimumHeight(TimelineLayout::heightFor(1));
    layout->addWidget(m_lanes, 1);

    // Arrivals come in bursts; repaint for them at most four times a second.
    m_densityRepaint.setSingleShot(true);
    m_densityRepaint.setInterval(250ms);
    connect(&m_densityRepaint, &QTimer::timeout, m_timeline, qOverload<>(&QWidget::update));
}

TimelineView::~TimelineView() = default;

void TimelineView::syncHosts()
{
    m_timeline->setHosts(m_hosts->hostNames());
    if (m_lanes)
        m_lanes->updateGeometry();   // a lane more or less: the window gives the timeline room for it
    QStringList engines;
    for (int row = 0; row < m_hosts->rowCount(); ++row) {
        const QModelIndex index = m_hosts->index(row);
        const QString engine = index.data(HostTableModel::EngineRole).toString();
        const QString to = index.data(HostTableModel::SwitchToRole).toString();
        const QString label = TimelineText::laneEngine(HostActivity(index.data(HostTableModel::ActivityRole).toInt()), engine,
                                                       index.data(HostTableModel::SwitchFromRole).toString(), to);
        // During a switch the dot takes the colour of the engine it starts.
        m_timeline->setCurrentEngine(index.data(HostTableModel::NameRole).toString(),
                                     label != engine && !to.isEmpty() ? to : engine, label);
        for (const QString &engine : index.data(HostTableModel::EnginesRole).toStringList()) {
            if (!engines.contains(engine))
                engines.append(engine);
        }
    }
    if (engines != m_engines) {
        m_engines = engines;
        updateLegend();
    }
}

QColor TimelineView::legendColor(const QString &what) const
{
    if (what == "switch"_L1)
        return StatusPalette::switching();
    if (what == "down"_L1)
        return StatusPalette::bad();
    if (what == "asleep"_L1)
        return StatusPalette::idle();
    if (what == "load"_L1)
        return StatusPalette::good();
    if (what == "unload"_L1)
        return StatusPalette::idle();
    if (what == "lease"_L1)
        return StatusPalette::lease();
    if (what == "gap"_L1)
        return palette().color(QPalette::PlaceholderText);   // the hatching over a gap
    return StatusPalette::forEngine(what);
}

void TimelineView::updateLegend()
{
    auto swatch = [this](const QString &what, const QString &glyph) {
        return u"<span style=\"color:%1\">%2</span>"_s.arg(legendColor(what).name(), glyph);
    };
    // Each engine's bar colour, named, as the bars use them; at most four, then "…".
    const auto item = [&](const QString &html, const QString &glyph, const QString &text) {
        m_legendItems.append(html + u"&nbsp;"_s + text.toHtmlEscaped().replace(u' ', u"&nbsp;"_s));
        m_legendWords.append(glyph + u' ' + text);
    };
    m_legendItems.clear();
    m_legendWords.clear();
    if (m_engines.isEmpty()) {
        item(swatch(u"main"_s, u"■"_s), u"■"_s, tr("engine up"));
    } else {
        QStringList html;
        QStringList words;
        for (const QString &engine : m_engines.mid(0, 4)) {
            html.append(swatch(engine, u"■"_s) + u"&nbsp;"_s + engine.toHtmlEscaped());
            words.append(u"■ "_s + engine);
        }
        if (m_engines.size() > 4) {
            html.append(u"…"_s);
            words.append(u"…"_s);
        }
        m_legendItems.append(tr("engines:").toHtmlEscaped() + u"&nbsp;"_s + html.join(u"&nbsp;"_s));
        m_legendWords.append(tr("engines:") + u' ' + words.join(u' '));
    }
    item(swatch(u"switch"_s, u"■"_s), u"■"_s, tr("switch"));
    item(swatch(u"down"_s, u"■"_s), u"■"_s, tr("down or failed"));
    item(swatch(u"asleep"_s, u"■"_s), u"■"_s, tr("asleep"));
    item(swatch(u"load"_s, u"◆"_s), u"◆"_s, tr("load"));
    item(swatch(u"unload"_s, u"◇"_s), u"◇"_s, tr("unload"));
    item(swatch(u"lease"_s, u"▬"_s), u"▬"_s, tr("lease"));
    // The hatched gap (issue 30): time nothing was observed, not an idle or empty host.
    item(swatch(u"gap"_s, u"▨"_s), u"▨"_s, tr("Switchyard not running"));
    item(u"<span style=\"color:%1\">▮</span>"_s.arg(palette().color(QPalette::Highlight).name()), u"▮"_s, tr("requests"));
    fitLegend();
}

void TimelineView::fitLegend()
{
    const QString gap = u"&nbsp;&nbsp;&nbsp;"_s;
    const QFontMetrics fm(m_legend->font());
    const int gapWidth = fm.horizontalAdvance(u"   "_s);
    // What the row leaves right of the buttons; before the view is shown and laid out, all
    // of it (an early guess would change the legend's height under the window's first layout).
    const int room = isVisible() ? width() - (m_follow->geometry().right() + 12) : std::numeric_limits<int>::max();
    QStringList lines;
    QString line;
    int used = 0;
    for (qsizetype i = 0; i < m_legendItems.size(); ++i) {
        const int w = fm.horizontalAdvance(m_legendWords.at(i));
        if (!line.isEmpty() && used + gapWidth + w > room) {
            lines.append(line);
            line.clear();
            used = 0;
        }
        used += (line.isEmpty() ? 0 : gapWidth) + w;
        line += (line.isEmpty() ? QString() : gap) + m_legendItems.at(i);
    }
    if (!line.isEmpty())
        lines.append(line);
    const QString text = lines.join(u"<br>"_s);
    if (text != m_legend->text())
        m_legend->setText(text);
}

void TimelineView::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    fitLegend();
}

void TimelineView::setInFlight(InFlightCounter *inFlight)
{
    m_timeline->setInFlight(inFlight);
    connect(inFlight, &InFlightCounter::changed, this, [this] {
        if (!m_densityRepaint.isActive())
            m_densityRepaint.start();
    });
}

void TimelineView::addToDensity(const RequestRecord &r)
{
    if (r.host.isEmpty())
        return;   // the relay's own answers (lists, refusals) busy no host
    const qint64 start = r.startedAt.toMSecsSinceEpoch();
    const qint64 end = start + std::chrono::duration_cast<std::chrono::milliseconds>(r.duration).count();
    m_density.add(r.host, start, end, RequestLogModel::severity(r) != RequestLogModel::Severity::Normal);
}

void TimelineView::setHistory(HistoryStore *store)
{
    if (m_store)
        disconnect(m_store, nullptr, this, nullptr);
    m_store = store;
    m_density.clear();
    m_events->clear();
    if (!store)
        return;
    const QDateTime now = m_clock.now();
    m_events->loadFrom(*store, now.addSecs(-std::chrono::duration_cast<std::chrono::seconds>(EventHistory).count()));
    RequestQuery query;
    query.since = now.addSecs(-std::chrono::duration_cast<std::chrono::seconds>(RequestHistory).count());
    query.limit = RequestDensity::DefaultCapacityPerHost;
    for (const RequestRecord &r : store->requests(query))
        addToDensity(r);
    connect(store, &HistoryStore::eventRecorded, m_events, &TimelineModel::append);
    connect(store, &HistoryStore::requestRecorded, this, [this](const RequestRecord &r) {
        addToDensity(r);
        if (!m_densityRepaint.isActive())
            m_densityRepaint.start();
    });
    m_timeline->update();
}

} // namespace switchyard
