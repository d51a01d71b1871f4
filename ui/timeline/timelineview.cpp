#include "timeline/timelineview.h"

#include "models/hosttablemodel.h"
#include "models/inflightcounter.h"
#include "shared/statuspalette.h"
#include "common/clock.h"
#include "store/historystore.h"
#include "store/requestlogmodel.h"
#include "store/timelinemodel.h"
#include "timeline/timelinewidget.h"

#include <QButtonGroup>
#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>
#include <QVBoxLayout>

namespace switchyard {

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
    // takes the rest of the row, right-aligned, and wraps between its items where the row is
    // too short for it (the German one at 1000 px was cut off after "Reserv").
    m_legend->setTextFormat(Qt::RichText);
    m_legend->setForegroundRole(QPalette::PlaceholderText);
    m_legend->setWordWrap(true);
    m_legend->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    m_legend->setMinimumWidth(0);
    bar->addWidget(m_legend, 1);
    updateLegend();

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(bar);
    layout->addWidget(m_timeline, 1);

    // Arrivals come in bursts; repaint for them at most four times a second.
    m_densityRepaint.setSingleShot(true);
    m_densityRepaint.setInterval(250ms);
    connect(&m_densityRepaint, &QTimer::timeout, m_timeline, qOverload<>(&QWidget::update));
}

TimelineView::~TimelineView() = default;

void TimelineView::syncHosts()
{
    m_timeline->setHosts(m_hosts->hostNames());
    QStringList engines;
    for (int row = 0; row < m_hosts->rowCount(); ++row) {
        const QModelIndex index = m_hosts->index(row);
        m_timeline->setCurrentEngine(index.data(HostTableModel::NameRole).toString(),
                                     index.data(HostTableModel::EngineRole).toString());
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
    if (what == "load"_L1)
        return StatusPalette::good();
    if (what == "unload"_L1)
        return StatusPalette::idle();
    if (what == "lease"_L1)
        return StatusPalette::lease();
    return StatusPalette::forEngine(what);
}

void TimelineView::updateLegend()
{
    auto swatch = [this](const QString &what, const QString &glyph) {
        return u"<span style=\"color:%1\">%2</span>"_s.arg(legendColor(what).name(), glyph);
    };
    // An item never breaks inside ("■ down or failed"); the legend wraps between items.
    auto words = [](const QString &text) { return text.toHtmlEscaped().replace(u' ', u"&nbsp;"_s); };
    // Each engine's bar colour, named, as the bars use them; at most four, then "…".
    QStringList engines;
    for (const QString &engine : m_engines.mid(0, 4))
        engines.append(swatch(engine, u"■"_s) + u"&nbsp;"_s + words(engine));
    if (m_engines.size() > 4)
        engines.append(u"…"_s);
    QStringList items;
    items.append(engines.isEmpty() ? swatch(u"main"_s, u"■"_s) + u"&nbsp;"_s + words(tr("engine up"))
                                   : words(tr("engines:")) + u"&nbsp;"_s + engines.join(u"&nbsp;"_s));
    items += QStringList{
        swatch(u"switch"_s, u"■"_s) + u"&nbsp;"_s + words(tr("switch")),
        swatch(u"down"_s, u"■"_s) + u"&nbsp;"_s + words(tr("down or failed")),
        swatch(u"load"_s, u"◆"_s) + u"&nbsp;"_s + words(tr("load")),
        swatch(u"unload"_s, u"◇"_s) + u"&nbsp;"_s + words(tr("unload")),
        swatch(u"lease"_s, u"▬"_s) + u"&nbsp;"_s + words(tr("lease")),
        u"<span style=\"color:%1\">▮</span>&nbsp;"_s.arg(palette().color(QPalette::Highlight).name()) + words(tr("requests")),
    };
    m_legend->setText(items.join(u"&nbsp;&nbsp; "_s));
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
