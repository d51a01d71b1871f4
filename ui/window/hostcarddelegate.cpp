#include "window/hostcarddelegate.h"

#include "models/hosttablemodel.h"
#include "shared/statuspalette.h"
#include "shared/uiformat.h"
#include "catalog/loadprogress.h"
#include "common/clock.h"
#include "engines/gpureading.h"

#include <QApplication>
#include <QLocale>
#include <QPainter>
#include <QPainterPath>

#include <cmath>

namespace switchyard {

using namespace Qt::StringLiterals;

namespace {

constexpr int Margin = 4;      // around the card, inside the item rect
constexpr int Padding = 12;    // inside the card
constexpr int Accent = 5;      // the status strip on the left

QColor mix(const QColor &a, const QColor &b, double t)
{
    return QColor::fromRgbF(a.redF() * (1 - t) + b.redF() * t, a.greenF() * (1 - t) + b.greenF() * t,
                            a.blueF() * (1 - t) + b.blueF() * t);
}

} // namespace

HostCardDelegate::HostCardDelegate(const Clock &clock, QObject *parent)
    : QStyledItemDelegate(parent)
    , m_clock(clock)
{
}

QSize HostCardDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    const QFontMetrics fm(option.font);
    const int line = fm.height() + 4;
    // The cards share one height (uniform item sizes): a GPU row on any card makes room on all.
    bool gpus = false;
    for (int row = 0; index.model() && !gpus && row < index.model()->rowCount(); ++row)
        gpus = !gpuLine(index.model()->index(row, 0)).isEmpty();
    return QSize(m_cardWidth, 2 * Margin + 2 * Padding + int(line * 1.35) + (gpus ? 5 : 4) * line);
}

namespace {

QString elapsed(const QDateTime &since, const QDateTime &now)
{
    return UiFormat::span(std::chrono::milliseconds(std::max<qint64>(0, since.msecsTo(now))));
}

// A download's size: "1.2 of 4.0 GB", "120 of 380 MB", in the unit of the larger figure.
QString downloadedBytes(qint64 done, qint64 total)
{
    const QLocale locale;
    const bool gb = std::max(done, total) >= 1'000'000'000;
    const auto figure = [&](qint64 bytes) {
        return gb ? locale.toString(bytes / 1e9, 'f', 1) : locale.toString(std::llround(bytes / 1e6));
    };
    if (total <= 0)
        return gb ? HostCardDelegate::tr("%1 GB").arg(figure(done)) : HostCardDelegate::tr("%1 MB").arg(figure(done));
    return gb ? HostCardDelegate::tr("%1 of %2 GB").arg(figure(done), figure(total))
              : HostCardDelegate::tr("%1 of %2 MB").arg(figure(done), figure(total));
}

// "loading m2 · 40 %" (the stage too when the load has several: "mmproj 40 %"),
// "downloading m2 · 1.2 of 4.0 GB", or "loading m2" when the router said nothing yet.
QString loadingWhat(const QStringList &models, const LoadProgress &progress)
{
    const QString names = models.join(u", "_s);
    if (progress.value) {
        const QString percent = HostCardDelegate::tr("%1 %").arg(std::lround(*progress.value * 100));
        const bool stageHelps = progress.stages.size() > 1 && !progress.stage.isEmpty();
        return HostCardDelegate::tr("loading %1 · %2").arg(names, stageHelps ? progress.stage + u' ' + percent : percent);
    }
    if (progress.downloadDone >= 0)
        return HostCardDelegate::tr("downloading %1 · %2").arg(names, downloadedBytes(progress.downloadDone, progress.downloadTotal));
    return HostCardDelegate::tr("loading %1").arg(names);
}

} // namespace

QString HostCardDelegate::engineLine(const QModelIndex &index, const QDateTime &now)
{
    const auto activity = HostActivity(index.data(HostTableModel::ActivityRole).toInt());
    const QString engine = index.data(HostTableModel::EngineRole).toString();
    if (activity == HostActivity::Draining || activity == HostActivity::Switching) {
        const QString from = index.data(HostTableModel::SwitchFromRole).toString();
        const QString to = index.data(HostTableModel::SwitchToRole).toString();
        const QDateTime since = index.data(HostTableModel::ActivitySinceRole).toDateTime();
        QString change = to.isEmpty() ? tr("stopping %1").arg(from.isEmpty() ? engine : from)
                         : from.isEmpty() ? tr("→ %1").arg(to)
                                          : tr("%1 → %2").arg(from, to);
        if (since.isValid())
            change = tr("%1 · %2").arg(change, elapsed(since, now));
        return change;
    }
    // The batch policy serves on before it switches: say to which engine, who waits, and when.
    const QString next = index.data(HostTableModel::NextEngineRole).toString();
    if (activity == HostActivity::Up && !next.isEmpty()) {
        const int waiting = index.data(HostTableModel::NextWaitingRole).toInt();
        const QDateTime due = index.data(HostTableModel::NextDueRole).toDateTime();
        return due.isValid() ? tr("engine %1 · switch to %2 in %3 (%n waiting)", nullptr, waiting)
                                   .arg(engine, next, elapsed(now, due))
                             : tr("engine %1 · switch to %2 after the running requests (%n waiting)", nullptr, waiting)
                                   .arg(engine, next);
    }
    if (activity == HostActivity::Leased)
        return tr("no engine: the GPU is lent out");
    if (activity == HostActivity::Idle)
        return tr("no engine running · the next request starts one");
    if (activity == HostActivity::Asleep)
        return tr("asleep · the next request wakes or starts it");
    if (activity == HostActivity::Waking) {
        // First the box, then (if none runs when it answers) its engine: one wake, one clock.
        const QDateTime since = index.data(HostTableModel::ActivitySinceRole).toDateTime();
        const QString starting = index.data(HostTableModel::SwitchToRole).toString();
        const QString what = starting.isEmpty() ? tr("waiting for the host to answer") : tr("engine %1 starting").arg(starting);
        return since.isValid() ? tr("waking · %1 · %2").arg(what, elapsed(since, now)) : tr("waking · %1").arg(what);
    }
    const QStringList loading = index.data(HostTableModel::LoadingRole).toStringList();
    if (!loading.isEmpty()) {
        const QDateTime since = index.data(HostTableModel::LoadingSinceRole).toDateTime();
        const QString what = loadingWhat(loading, index.data(HostTableModel::LoadProgressRole).value<LoadProgress>());
        return since.isValid() ? tr("engine %1 · %2 · %3").arg(engine, what, elapsed(since, now))
                               : tr("engine %1 · %2").arg(engine, what);
    }
    const int loaded = index.data(HostTableModel::ModelsLoadedRole).toInt();
    const int total = index.data(HostTableModel::ModelsTotalRole).toInt();
    const QString models = total ? tr("%1 of %n model(s) loaded", nullptr, total).arg(loaded) : tr("no models listed");
    return tr("engine %1 · %2").arg(engine, models);
}

QString HostCardDelegate::factsLine(const QModelIndex &index, const QDateTime &now)
{
    const qint64 rtt = index.data(HostTableModel::RoundTripMsRole).toLongLong();
    const QDateTime lastPoll = index.data(HostTableModel::LastPollRole).toDateTime();
    const int inFlight = index.data(HostTableModel::InFlightRole).toInt();
    QStringList facts;
    // Liveness from the host's event feed: while it is connected, a change shows at once, and
    // the age of the last poll says nothing; nor does it while the box wakes (the polls of a
    // sleeping box failed, and the wake asks it itself).
    const bool waking = HostActivity(index.data(HostTableModel::ActivityRole).toInt()) == HostActivity::Waking;
    if (index.data(HostTableModel::LiveRole).toBool())
        facts.append(tr("live"));
    if (rtt >= 0 && lastPoll.isValid() && !waking)
        facts.append(tr("%1 ms round trip").arg(rtt));
    if (!index.data(HostTableModel::LiveRole).toBool() && !waking)
        facts.append(lastPoll.isValid() ? tr("polled %1").arg(UiFormat::ago(lastPoll, now)) : tr("not polled yet"));
    facts.append(tr("%n in flight", nullptr, inFlight));
    return facts.join(u" · "_s);
}

QString HostCardDelegate::detailLine(const QModelIndex &index, const QDateTime &now)
{
    const auto activity = HostActivity(index.data(HostTableModel::ActivityRole).toInt());
    const QString lastError = index.data(HostTableModel::LastErrorRole).toString();
    const QString leaseOwner = index.data(HostTableModel::LeaseOwnerRole).toString();
    if (!leaseOwner.isEmpty()) {
        const QDateTime until = index.data(HostTableModel::LeaseUntilRole).toDateTime();
        return until.isValid() ? tr("leased by %1 until %2").arg(leaseOwner, UiFormat::timeOfDay(until, now))
                               : tr("leased by %1").arg(leaseOwner);
    }
    if (!lastError.isEmpty() && activity == HostActivity::Down)
        return lastError;
    if (activity == HostActivity::Draining || activity == HostActivity::Switching) {
        // What the drain waits on and what waits with it.
        const QString text = index.data(HostTableModel::ActivityTextRole).toString();
        const qsizetype open = text.indexOf(u'(');
        if (open >= 0 && text.endsWith(u')'))
            return text.mid(open + 1, text.size() - open - 2);
        const QString to = index.data(HostTableModel::SwitchToRole).toString();
        return to.isEmpty() ? text : tr("starting %1, the old engine stopped").arg(to);
    }
    // The batch policy holds requests for another engine: what they wait for and until when.
    if (const QString next = index.data(HostTableModel::NextEngineRole).toString(); activity == HostActivity::Up && !next.isEmpty())
        return HostTableModel::waitingText(next, index.data(HostTableModel::NextWaitingRole).toInt(),
                                           index.data(HostTableModel::NextLatestRole).toDateTime(), now);
    // An agent a protocol version apart: the box serves, but not as the team expects.
    if (const QString notice = index.data(HostTableModel::ProtocolNoticeRole).toString(); !notice.isEmpty())
        return notice;
    const QString driver = index.data(HostTableModel::DriverRole).toString();
    const int engines = int(index.data(HostTableModel::EnginesRole).toStringList().size());
    return tr("driver %1 · %n engine(s)", nullptr, engines).arg(driver);
}

QString HostCardDelegate::gpuLine(const QModelIndex &index)
{
    const auto gpus = index.data(HostTableModel::GpusRole).value<QList<GpuReading>>();
    if (gpus.isEmpty())
        return {};
    // Several GPUs read as one box: memory summed, utilisation averaged, the hottest one.
    qint64 used = 0;
    qint64 total = 0;
    bool memory = false;
    int busySum = 0;
    int busyCount = 0;
    std::optional<int> hottest;
    for (const GpuReading &g : gpus) {
        if (g.memoryUsedMiB && g.memoryTotalMiB) {
            used += *g.memoryUsedMiB;
            total += *g.memoryTotalMiB;
            memory = true;
        }
        if (g.utilizationPercent) {
            busySum += *g.utilizationPercent;
            ++busyCount;
        }
        if (g.temperatureC && (!hottest || *g.temperatureC > *hottest))
            hottest = g.temperatureC;
    }
    const QLocale locale;
    QStringList parts;
    if (memory)
        parts.append(tr("%1 of %2 GiB").arg(locale.toString(used / 1024.0, 'f', 1), locale.toString(total / 1024.0, 'f', 1)));
    if (busyCount)
        parts.append(tr("%1% busy").arg(busySum / busyCount));
    if (hottest)
        parts.append(gpus.size() > 1 ? tr("up to %1 °C").arg(*hottest) : tr("%1 °C").arg(*hottest));
    const QString figures = parts.isEmpty() ? tr("no figures") : parts.join(u" · "_s);
    return gpus.size() > 1 ? tr("%1 GPUs: %2").arg(gpus.size()).arg(figures) : tr("GPU: %1").arg(figures);
}

void HostCardDelegate::paint(QPainter *p, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    p->save();
    p->setRenderHint(QPainter::Antialiasing);
    const QPalette &pal = option.palette;
    const auto activity = HostActivity(index.data(HostTableModel::ActivityRole).toInt());
    const QColor status = StatusPalette::forActivity(activity);
    const QRectF card = QRectF(option.rect).adjusted(Margin + 0.5, Margin + 0.5, -Margin - 0.5, -Margin - 0.5);
    const bool selected = option.state.testFlag(QStyle::State_Selected);
    const bool hovered = option.state.testFlag(QStyle::State_MouseOver);

    // Card, with a strip in the host's status colour.
    QPainterPath shape;
    shape.addRoundedRect(card, 8, 8);
    p->fillPath(shape, hovered ? mix(pal.color(QPalette::Base), pal.color(QPalette::Highlight), 0.04)
                               : pal.color(QPalette::Base));
    p->save();
    p->setClipPath(shape);
    p->fillRect(QRectF(card.left(), card.top(), Accent, card.height()), status);
    p->restore();
    p->setPen(QPen(selected ? pal.color(QPalette::Highlight) : mix(pal.color(QPalette::Base), pal.color(QPalette::Text), 0.18),
                   selected ? 2.0 : 1.0));
    p->setBrush(Qt::NoBrush);
    p->drawPath(shape);

    const QRectF content = card.adjusted(Accent + Padding, Padding - 2, -Padding, -Padding + 2);
    QFont base = option.font;
    QFont title = base;
    title.setBold(true);
    title.setPointSizeF(base.pointSizeF() * 1.3);
    const QFontMetrics fm(base);
    const int line = fm.height() + 4;
    double y = content.top();

    // Row 1: name, and the state as a pill on the right.
    const QString stateText = HostTableModel::activityTitle(activity);
    QFont pillFont = base;
    pillFont.setBold(true);
    pillFont.setPointSizeF(base.pointSizeF() * 0.9);
    const QFontMetrics pfm(pillFont);
    const double pillWidth = pfm.horizontalAdvance(stateText) + 26;
    const double titleHeight = line * 1.35;
    const QRectF pill(content.right() - pillWidth, y + (titleHeight - pfm.height() - 6) / 2, pillWidth, pfm.height() + 6);
    p->setPen(Qt::NoPen);
    p->setBrush(mix(pal.color(QPalette::Base), status, 0.16));
    p->drawRoundedRect(pill, pill.height() / 2, pill.height() / 2);
    p->setBrush(status);
    p->drawEllipse(QPointF(pill.left() + 11, pill.center().y()), 4, 4);
    p->setFont(pillFont);
    p->setPen(status.darker(130));
    p->drawText(pill.adjusted(18, 0, -6, 0), Qt::AlignVCenter | Qt::AlignLeft, stateText);

    p->setFont(title);
    p->setPen(pal.color(QPalette::Text));
    const QString name = index.data(HostTableModel::NameRole).toString();
    p->drawText(QRectF(content.left(), y, content.width() - pillWidth - 8, titleHeight), Qt::AlignVCenter | Qt::AlignLeft,
                QFontMetrics(title).elidedText(name, Qt::ElideRight, int(content.width() - pillWidth - 8)));
    y += titleHeight;
    p->setFont(base);

    const QColor muted = pal.color(QPalette::PlaceholderText);
    auto text = [&](const QString &s, const QColor &color, Qt::TextElideMode elide = Qt::ElideRight) {
        p->setPen(color);
        p->drawText(QRectF(content.left(), y, content.width(), line), Qt::AlignVCenter | Qt::AlignLeft,
                    fm.elidedText(s, elide, int(content.width())));
        y += line;
    };

    // Row 2: the engine (with its timeline colour) and the models, or the change under way.
    const QString engine = index.data(HostTableModel::EngineRole).toString();
    const bool changing = activity == HostActivity::Draining || activity == HostActivity::Switching;
    const QString swatchEngine = changing ? index.data(HostTableModel::SwitchToRole).toString() : engine;
    p->setPen(Qt::NoPen);
    const bool noEngine = activity == HostActivity::Leased || activity == HostActivity::Idle
        || activity == HostActivity::Asleep || activity == HostActivity::Waking;
    p->setBrush(noEngine ? StatusPalette::idle() : StatusPalette::forEngine(swatchEngine));
    p->drawRoundedRect(QRectF(content.left(), y + (line - 10) / 2.0, 10, 10), 2, 2);
    const double indent = 16;
    p->setPen(pal.color(QPalette::Text));
    p->drawText(QRectF(content.left() + indent, y, content.width() - indent, line), Qt::AlignVCenter | Qt::AlignLeft,
                fm.elidedText(engineLine(index, m_clock.now()), Qt::ElideRight, int(content.width() - indent)));
    y += line;

    // Row 3: where it is.
    text(index.data(HostTableModel::UrlRole).toString(), muted, Qt::ElideMiddle);

    // Row 4: how it answers.
    const int inFlight = index.data(HostTableModel::InFlightRole).toInt();
    text(factsLine(index, m_clock.now()), inFlight > 0 ? pal.color(QPalette::Text) : muted);

    // Row 5: what is wrong, or who has the GPU, or what a drain or a held request waits for, or
    // the driver.
    const QString leaseOwner = index.data(HostTableModel::LeaseOwnerRole).toString();
    const QColor detailColor = !leaseOwner.isEmpty()               ? StatusPalette::lease()
                               : activity == HostActivity::Down    ? StatusPalette::bad()
                               : changing || !index.data(HostTableModel::NextEngineRole).toString().isEmpty()
                                   ? pal.color(QPalette::Text)
                                                                   : muted;
    text(detailLine(index, m_clock.now()), detailColor);

    // Row 6, for a box whose agent reads its GPUs.
    const QString gpus = gpuLine(index);
    if (!gpus.isEmpty())
        text(gpus, muted);
    p->restore();
}

} // namespace switchyard
