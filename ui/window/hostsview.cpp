#include "window/hostsview.h"

#include "app/relayservice.h"
#include "app/remoterelayfeed.h"
#include "catalog/catalog.h"
#include "dialogs/leasedialog.h"
#include "hosts/hostcontroller.h"
#include "models/hosttablemodel.h"
#include "shared/failurewords.h"
#include "window/hostcarddelegate.h"

#include <QAction>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QGuiApplication>
#include <QLineEdit>
#include <QMenu>

namespace switchyard {

using namespace std::chrono_literals;
using namespace Qt::StringLiterals;

HostsView::HostsView(HostTableModel *model, const Clock &clock, QWidget *parent)
    : QListView(parent)
    , m_model(model)
    , m_delegate(new HostCardDelegate(clock, this))
{
    setModel(model);
    setItemDelegate(m_delegate);
    setViewMode(QListView::ListMode);
    setFlow(QListView::LeftToRight);
    setWrapping(true);
    setResizeMode(QListView::Adjust);
    setUniformItemSizes(true);
    setSelectionMode(QAbstractItemView::SingleSelection);
    setMouseTracking(true);
    setFrameShape(QFrame::NoFrame);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // Only a window too short for every row scrolls them (the window keeps the cards whole).
    setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    viewport()->setAutoFillBackground(false);
    setAccessibleName(tr("Hosts"));

    m_refresh = new QAction(tr("&Refresh Now"), this);
    m_refresh->setToolTip(tr("Ask the host for its models now, instead of at the next poll"));
    connect(m_refresh, &QAction::triggered, this, [this] {
        const QString host = currentHost();
        if (RemoteRelayFeed *feed = m_model->remote()) {
            feed->refresh();   // a watched relay: ask it again now, not at the next poll
            emit message(tr("Asking %1 again").arg(feed->relay().authority()));
            return;
        }
        if (!m_service)
            return;
        if (host.isEmpty())
            m_service->catalog()->refreshAll();
        else
            m_service->catalog()->refreshHost(host);
        emit message(host.isEmpty() ? tr("Refreshing every host") : tr("Refreshing %1").arg(host));
    });
    m_switchEngine = new QAction(tr("&Switch Engine…"), this);
    m_switchEngine->setToolTip(tr("Run another engine on the host: running requests finish first, new ones wait"));
    connect(m_switchEngine, &QAction::triggered, this, &HostsView::switchEngine);
    m_takeLease = new QAction(tr("&Take Lease…"), this);
    m_takeLease->setToolTip(tr("Take the host's GPU from the relay: running requests finish, the engine stops, "
                               "model requests get 423 until you release it"));
    connect(m_takeLease, &QAction::triggered, this, &HostsView::takeLease);
    m_releaseLease = new QAction(tr("Re&lease Lease"), this);
    m_releaseLease->setToolTip(tr("Give the host back to the relay"));
    connect(m_releaseLease, &QAction::triggered, this, [this] {
        if (RemoteRelayFeed *feed = m_model->remote(); feed && !currentHost().isEmpty()) {
            const QString host = currentHost();
            feed->releaseLease(host, [self = QPointer<HostsView>(this), host](int status, const QString &why) {
                if (self)
                    emit self->message(status == 200 ? tr("%1 is back with the relay").arg(host)
                                                     : tr("%1 was not released: %2").arg(host, why));
            });
            return;
        }
        if (HostController *c = m_model->controller(currentHost())) {
            c->releaseLease();
            emit message(tr("%1 is back with the relay").arg(c->host()));
        }
    });
    m_copyUrl = new QAction(tr("&Copy Engine URL"), this);
    connect(m_copyUrl, &QAction::triggered, this, [this] {
        const QModelIndex index = currentIndex();
        if (index.isValid())
            QGuiApplication::clipboard()->setText(index.data(HostTableModel::UrlRole).toString());
    });
    m_editHost = new QAction(tr("&Edit Host…"), this);
    m_editHost->setToolTip(tr("Change the host's engines, URLs and keys in the config file"));
    connect(m_editHost, &QAction::triggered, this, [this] { emit editHostRequested(currentHost()); });
    connect(selectionModel(), &QItemSelectionModel::currentChanged, this, &HostsView::updateActions);
    connect(model, &QAbstractItemModel::modelReset, this, [this] {
        fitCards();
        updateActions();
    });
    connect(model, &QAbstractItemModel::rowsInserted, this, &HostsView::fitCards);
    connect(model, &QAbstractItemModel::dataChanged, this, &HostsView::updateActions);
    connect(model, &QAbstractItemModel::rowsRemoved, this, &HostsView::fitCards);
    updateActions();

    // "polled 4 s ago" keeps counting.
    m_repaint.setInterval(1s);
    connect(&m_repaint, &QTimer::timeout, viewport(), qOverload<>(&QWidget::update));
    m_repaint.start();
}

void HostsView::setService(RelayService *service)
{
    m_service = service;
    updateActions();
}

QString HostsView::currentHost() const
{
    const QModelIndex index = currentIndex();
    return index.isValid() ? index.data(HostTableModel::NameRole).toString() : QString();
}

void HostsView::updateActions()
{
    m_refresh->setEnabled(m_service != nullptr || m_model->remote());
    m_copyUrl->setEnabled(currentIndex().isValid());
    if (m_model->remote()) {
        // A watched relay: its host controllers act through its admin API.
        const QModelIndex index = currentIndex();
        const bool leased = index.isValid() && !index.data(HostTableModel::LeaseOwnerRole).toString().isEmpty();
        m_switchEngine->setEnabled(index.isValid() && !leased && index.data(HostTableModel::EnginesRole).toStringList().size() > 1);
        m_takeLease->setEnabled(index.isValid() && !leased);
        m_releaseLease->setEnabled(leased);
        return;
    }
    HostController *c = m_model->controller(currentHost());
    const bool leased = c && c->state() == HostStateMachine::State::Leased;
    const bool leaseWanted = currentIndex().isValid() && !currentIndex().data(HostTableModel::LeaseOwnerRole).toString().isEmpty();
    m_switchEngine->setEnabled(c && c->canSwitch() && c->engines().size() > 1 && !leased && !leaseWanted);
    m_takeLease->setEnabled(c && !leased && !leaseWanted);
    m_releaseLease->setEnabled(c && (leased || leaseWanted));
    if (!c) {
        const QString why = currentIndex().isValid() ? tr("This host has no controller") : tr("Select a host first");
        m_switchEngine->setStatusTip(why);
        m_takeLease->setStatusTip(why);
        m_releaseLease->setStatusTip(why);
    }
}

QList<SwitchEngineDialog::Engine> HostsView::enginesOf(const QString &host) const
{
    QList<SwitchEngineDialog::Engine> out;
    HostController *c = m_model->controller(host);
    const Catalog::HostState *state = m_service ? m_service->catalog()->host(host) : nullptr;
    if (!c)
        return out;
    for (const QString &name : c->engines()) {
        SwitchEngineDialog::Engine e{name, {}};
        if (state) {
            for (const Catalog::EngineModels &models : state->engines) {
                if (models.name != name)
                    continue;
                e.models = models.explicitModels;
                const QList<ModelEntry> &seen = name == state->engine && state->reachable ? state->models : models.lastSeen;
                if (e.models.isEmpty()) {
                    for (const ModelEntry &m : seen)
                        e.models.append(m.key);
                }
            }
        }
        out.append(e);
    }
    return out;
}

void HostsView::switchEngine()
{
    if (RemoteRelayFeed *feed = m_model->remote()) {
        const QModelIndex index = currentIndex();
        if (!index.isValid())
            return;
        const QString host = currentHost();
        QList<SwitchEngineDialog::Engine> engines;
        for (const QString &name : index.data(HostTableModel::EnginesRole).toStringList())
            engines.append({name, {}});
        SwitchEngineDialog dialog(host, engines, index.data(HostTableModel::EngineRole).toString(), this);
        if (dialog.exec() != QDialog::Accepted || dialog.engine().isEmpty())
            return;
        const QString engine = dialog.engine();
        emit message(tr("Switching %1 to %2…").arg(host, engine));
        feed->switchEngine(host, engine, [self = QPointer<HostsView>(this), host, engine](int status, const QString &why) {
            if (self)
                emit self->message(status == 200 ? tr("%1 runs %2").arg(host, engine)
                                                 : tr("%1 did not switch to %2: %3").arg(host, engine, why));
        });
        return;
    }
    HostController *c = m_model->controller(currentHost());
    if (!c)
        return;
    SwitchEngineDialog dialog(c->host(), enginesOf(c->host()), c->currentEngine(), this);
    if (dialog.exec() != QDialog::Accepted || dialog.engine().isEmpty())
        return;
    const QString engine = dialog.engine();
    const QString host = c->host();
    emit message(tr("Switching %1 to %2…").arg(host, engine));
    QPointer<HostsView> self(this);
    c->switchEngine(engine, u"desktop"_s, [self, host, engine](const std::optional<HostRefusal> &refused) {
        if (!self)
            return;
        if (!refused)
            emit self->message(tr("%1 runs %2").arg(host, engine));
        else
            emit self->message(tr("%1 did not switch to %2: %3").arg(host, engine, FailureWords::refusal(*refused)));
    });
    updateActions();
}

void HostsView::takeLease()
{
    if (RemoteRelayFeed *feed = m_model->remote()) {
        const QString host = currentHost();
        if (host.isEmpty())
            return;
        LeaseDialog dialog(host, this);
        if (dialog.exec() != QDialog::Accepted)
            return;
        emit message(tr("Waiting for %1 to finish its requests and stop its engine…").arg(host));
        feed->takeLease(host, dialog.owner(), dialog.duration(), [self = QPointer<HostsView>(this), host](int status, const QString &why) {
            if (self)
                emit self->message(status == 200 ? tr("%1 is yours: its GPU is free until you release it").arg(host)
                                                 : tr("%1 was not leased: %2").arg(host, why));
        });
        return;
    }
    HostController *c = m_model->controller(currentHost());
    if (!c)
        return;
    LeaseDialog dialog(c->host(), this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    const QString host = c->host();
    emit message(tr("Waiting for %1 to finish its requests and stop its engine…").arg(host));
    QPointer<HostsView> self(this);
    c->takeLease(dialog.owner(), dialog.duration(), [self, host](const std::optional<HostRefusal> &refused) {
        if (self && !refused)
            emit self->message(tr("%1 is yours: its GPU is free until you release it").arg(host));
        else if (self && refused->reason == HostRefusal::Reason::LeaseReleased)
            emit self->message(tr("The lease on %1 was released before it was granted").arg(host));
        else if (self)
            emit self->message(tr("%1 was not leased: %2").arg(host, FailureWords::refusal(*refused)));
    });
    updateActions();
}

void HostsView::contextMenuEvent(QContextMenuEvent *event)
{
    const QModelIndex index = indexAt(event->pos());
    if (index.isValid())
        setCurrentIndex(index);
    updateActions();
    QMenu menu(this);
    menu.setToolTipsVisible(true);
    menu.addAction(m_refresh);
    menu.addAction(m_copyUrl);
    menu.addSeparator();
    menu.addAction(m_switchEngine);
    menu.addAction(m_takeLease);
    menu.addAction(m_releaseLease);
    menu.addSeparator();
    menu.addAction(m_editHost);
    menu.exec(event->globalPos());
}

int HostsView::cardsPerRow(int width, int cards)
{
    return std::clamp(width / HostCardDelegate::CardWidth, 1, std::max(1, cards));
}

int HostsView::cardWidthFor(int width, int cards)
{
    // The cards fill their row, so a wide window has no empty band right of them.
    return std::clamp(width / cardsPerRow(width, cards), HostCardDelegate::CardWidth, HostCardDelegate::MaxCardWidth);
}

int HostsView::heightForWidth(int width) const
{
    const int rows = m_model->rowCount();
    if (rows == 0)
        return 40;
    QStyleOptionViewItem option;
    initViewItemOption(&option);
    const QSize card = itemDelegate()->sizeHint(option, m_model->index(0));
    const int inner = width - 2 * frameWidth() - style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, this) - 4;
    const int perRow = std::max(1, inner / std::max(1, cardWidthFor(inner, rows)));
    const int lines = (rows + perRow - 1) / perRow;
    return lines * (card.height() + 2 * spacing()) + 2 * frameWidth() + 2;
}

void HostsView::resizeEvent(QResizeEvent *event)
{
    QListView::resizeEvent(event);
    fitCards();
}

void HostsView::fitCards()
{
    // The cards fill the width, with room kept for a scroll bar: one appearing must not push
    // the last card of a row to the next.
    const int inner = width() - 2 * frameWidth() - style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, this) - 4;
    const int cardWidth = cardWidthFor(std::max(inner, HostCardDelegate::CardWidth), m_model->rowCount());
    if (cardWidth != m_delegate->cardWidth()) {
        m_delegate->setCardWidth(cardWidth);
        scheduleDelayedItemsLayout();
    }
    updateGeometry();
}

QSize HostsView::sizeHint() const
{
    const int w = std::max(width(), 700);
    return QSize(w, heightForWidth(w));
}

QSize HostsView::minimumSizeHint() const
{
    // One row of cards whole (more rows scroll in a short window), or what all of them need when
    // that is less: a card is never cut, whatever else takes the height (a banner, a restored split).
    QStyleOptionViewItem option;
    initViewItemOption(&option);
    const int card = m_model->rowCount() ? itemDelegate()->sizeHint(option, m_model->index(0)).height() : 40;
    return QSize(HostCardDelegate::CardWidth, std::min(card + 2 * spacing() + 2 * frameWidth() + 2, sizeHint().height()));
}

} // namespace switchyard
