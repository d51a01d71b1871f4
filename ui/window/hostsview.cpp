#include "window/hostsview.h"

#include "app/relayservice.h"
#include "catalog/catalog.h"
#include "hosts/hostcontroller.h"
#include "models/hosttablemodel.h"
#include "window/hostcarddelegate.h"

#include <QAction>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QGuiApplication>
#include <QInputDialog>
#include <QLineEdit>
#include <QMenu>

namespace switchyard {

using namespace std::chrono_literals;
using namespace Qt::StringLiterals;

HostsView::HostsView(HostTableModel *model, const Clock &clock, QWidget *parent)
    : QListView(parent)
    , m_model(model)
{
    setModel(model);
    setItemDelegate(new HostCardDelegate(clock, this));
    setViewMode(QListView::ListMode);
    setFlow(QListView::LeftToRight);
    setWrapping(true);
    setResizeMode(QListView::Adjust);
    setUniformItemSizes(true);
    setSelectionMode(QAbstractItemView::SingleSelection);
    setMouseTracking(true);
    setFrameShape(QFrame::NoFrame);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    viewport()->setAutoFillBackground(false);
    setAccessibleName(tr("Hosts"));

    m_refresh = new QAction(tr("&Refresh Now"), this);
    m_refresh->setToolTip(tr("Ask the host for its models now, instead of at the next poll"));
    connect(m_refresh, &QAction::triggered, this, [this] {
        const QString host = currentHost();
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
    connect(selectionModel(), &QItemSelectionModel::currentChanged, this, &HostsView::updateActions);
    connect(model, &QAbstractItemModel::modelReset, this, [this] {
        fitHeight();
        updateActions();
    });
    connect(model, &QAbstractItemModel::rowsInserted, this, &HostsView::fitHeight);
    connect(model, &QAbstractItemModel::dataChanged, this, &HostsView::updateActions);
    connect(model, &QAbstractItemModel::rowsRemoved, this, &HostsView::fitHeight);
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
    m_refresh->setEnabled(m_service != nullptr);
    m_copyUrl->setEnabled(currentIndex().isValid());
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

void HostsView::switchEngine()
{
    HostController *c = m_model->controller(currentHost());
    if (!c)
        return;
    const QStringList engines = c->engines();
    // Offer the first engine that is not running: the likely choice.
    qsizetype proposed = 0;
    while (proposed + 1 < engines.size() && engines.at(proposed) == c->currentEngine())
        ++proposed;
    bool ok = false;
    const QString engine = QInputDialog::getItem(this, tr("Switch Engine on %1").arg(c->host()),
                                                 tr("Engine to run (running requests finish first):"), engines,
                                                 int(proposed), false, &ok);
    if (!ok || engine.isEmpty())
        return;
    const QString host = c->host();
    emit message(tr("Switching %1 to %2…").arg(host, engine));
    QPointer<HostsView> self(this);
    c->switchEngine(engine, u"desktop"_s, [self, host, engine](int status, const QString &reason) {
        if (!self)
            return;
        if (status == 200)
            emit self->message(tr("%1 runs %2").arg(host, engine));
        else
            emit self->message(tr("%1 did not switch to %2: %3").arg(host, engine, reason));
    });
    updateActions();
}

void HostsView::takeLease()
{
    HostController *c = m_model->controller(currentHost());
    if (!c)
        return;
    bool ok = false;
    const QString owner = QInputDialog::getText(this, tr("Take Lease on %1").arg(c->host()),
                                                tr("Who uses the GPU (model requests are told so):"), QLineEdit::Normal,
                                                tr("desktop"), &ok).trimmed();
    if (!ok || owner.isEmpty())
        return;
    const int minutes = QInputDialog::getInt(this, tr("Take Lease on %1").arg(c->host()),
                                             tr("For how long, at most (minutes):"), 60, 1, 24 * 60, 1, &ok);
    if (!ok)
        return;
    const QString host = c->host();
    emit message(tr("Waiting for %1 to finish its requests and stop its engine…").arg(host));
    QPointer<HostsView> self(this);
    c->takeLease(owner, std::chrono::minutes(minutes), [self, host](int status, const QString &) {
        if (self && status == 200)
            emit self->message(tr("%1 is yours: its GPU is free until you release it").arg(host));
        else if (self)
            emit self->message(tr("The lease on %1 was released before it was granted").arg(host));
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
    menu.exec(event->globalPos());
}

int HostsView::heightForWidth(int width) const
{
    const int rows = m_model->rowCount();
    if (rows == 0)
        return 40;
    QStyleOptionViewItem option;
    initViewItemOption(&option);
    const QSize card = itemDelegate()->sizeHint(option, m_model->index(0));
    const int perRow = std::max(1, (width - 2 * frameWidth()) / std::max(1, card.width() + 2 * spacing()));
    const int lines = (rows + perRow - 1) / perRow;
    return lines * (card.height() + 2 * spacing()) + 2 * frameWidth() + 2;
}

void HostsView::resizeEvent(QResizeEvent *event)
{
    QListView::resizeEvent(event);
    fitHeight();
}

void HostsView::fitHeight()
{
    // As tall as the cards need at this width: no scroll bar, no empty band.
    const int h = heightForWidth(width());
    if (h != height())
        setFixedHeight(h);
}

QSize HostsView::sizeHint() const
{
    const int w = std::max(width(), 700);
    return QSize(w, heightForWidth(w));
}

} // namespace switchyard
