#include "tray/traycontroller.h"

#include "models/hostsummary.h"
#include "models/hosttablemodel.h"
#include "models/inflightcounter.h"
#include "shared/clientconfigexporter.h"
#include "shared/statuspalette.h"
#include "shared/uiresources.h"

#include <QAction>
#include <QClipboard>
#include <QGuiApplication>
#include <QIcon>

namespace switchyard {

using namespace Qt::StringLiterals;

TrayController::TrayController(HostTableModel *hosts, InFlightCounter *inFlight, QObject *parent)
    : QObject(parent)
    , m_hosts(hosts)
    , m_inFlight(inFlight)
    , m_exporter(new ClientConfigExporter(this))
{
    initUiResources();
    m_open = m_menu.addAction(QIcon(u":/icons/switchyard.svg"_s), tr("&Open Switchyard"));
    QFont bold = m_open->font();
    bold.setBold(true);
    m_open->setFont(bold);
    connect(m_open, &QAction::triggered, this, &TrayController::openWindowRequested);

    m_hostsHeader = m_menu.addSection(tr("Hosts"));
    m_noHosts = m_menu.addAction(tr("No hosts configured"));
    m_noHosts->setEnabled(false);
    m_hostsEnd = m_menu.addSeparator();

    m_copyEndpoint = m_menu.addAction(tr("&Copy Endpoint URL"));
    connect(m_copyEndpoint, &QAction::triggered, this, [this] {
        const QString url = m_endpoint.toString() + u"/v1"_s;
        QGuiApplication::clipboard()->setText(url);
        showMessage(tr("Endpoint copied"), tr("%1 is on the clipboard.").arg(url));
    });
    QMenu *exportMenu = m_menu.addMenu(tr("&Export Client Config"));
    for (const ClientConfigExporter::Client &client : ClientConfigExporter::clients()) {
        QAction *a = exportMenu->addAction(client.title);
        const QString id = client.id;
        a->setToolTip(tr("Copy the config to the clipboard"));
        connect(a, &QAction::triggered, this, [this, id] { exportConfig(id); });
    }
    exportMenu->addSeparator();
    QAction *more = exportMenu->addAction(tr("&Preview, Save or Merge…"));
    connect(more, &QAction::triggered, this, &TrayController::exportDialogRequested);
    connect(m_exporter, &ClientConfigExporter::finished, this, [this](const QString &client, bool ok, const QString &text) {
        if (ok) {
            QGuiApplication::clipboard()->setText(text);
            showMessage(tr("Client config copied"), tr("The %1 config is on the clipboard.").arg(client));
        } else {
            showMessage(tr("Export failed"), text, QSystemTrayIcon::Warning);
        }
    });
    QAction *settings = m_menu.addAction(tr("&Settings…"));
    connect(settings, &QAction::triggered, this, &TrayController::settingsRequested);
    m_menu.addSeparator();
    QAction *quit = m_menu.addAction(tr("&Quit Switchyard"));
    connect(quit, &QAction::triggered, this, &TrayController::quitRequested);

    m_icon.setContextMenu(&m_menu);
    connect(&m_icon, &QSystemTrayIcon::activated, this, [this](QSystemTrayIcon::ActivationReason reason) {
        if (reason == QSystemTrayIcon::Trigger)
            emit toggleWindowRequested();
        else if (reason == QSystemTrayIcon::MiddleClick)
            emit openWindowRequested();
    });

    connect(hosts, &QAbstractItemModel::modelReset, this, &TrayController::rebuildHosts);
    connect(hosts, &QAbstractItemModel::dataChanged, this, &TrayController::rebuildHosts);
    connect(hosts, &HostTableModel::activitiesChanged, this, &TrayController::updateState);
    connect(inFlight, &InFlightCounter::changed, this, &TrayController::updateState);
    rebuildHosts();
    m_icon.setIcon(QIcon(TrayState::iconPath(m_state)));
    updateState();
}

TrayController::~TrayController() = default;

bool TrayController::isAvailable()
{
    return QSystemTrayIcon::isSystemTrayAvailable();
}

bool TrayController::show()
{
    if (!isAvailable())
        return false;
    m_icon.show();
    return true;
}

bool TrayController::isVisible() const
{
    return m_icon.isVisible();
}

void TrayController::hide()
{
    m_icon.hide();
}

void TrayController::setEndpoint(const QUrl &endpoint, const QString &apiKey)
{
    m_endpoint = endpoint;
    m_exporter->setEndpoint(endpoint);
    m_exporter->setApiKey(apiKey);
    m_copyEndpoint->setToolTip(endpoint.toString() + u"/v1"_s);
    updateState();
}

void TrayController::setModelList(const QByteArray &json)
{
    m_exporter->setModelList(json);
}

void TrayController::showMessage(const QString &title, const QString &text, QSystemTrayIcon::MessageIcon icon)
{
    if (m_icon.isVisible())
        m_icon.showMessage(title, text, icon, 4000);
}

void TrayController::exportConfig(const QString &client)
{
    m_exporter->start(client);
}

QString TrayController::toolTip() const
{
    // The same words as the window's status bar: a sleeping host is not counted as missing.
    const HostSummary hosts(m_hosts->activities());
    return tr("Switchyard — %1\n%2, %n in flight\n%3", nullptr, m_inFlight->total())
        .arg(TrayState::title(m_state), hosts.statusBarText(), m_endpoint.toString());
}

void TrayController::updateState()
{
    const TrayState::Kind state = TrayState::compute(m_hosts->activities(), m_inFlight->total());
    if (state != m_state) {
        m_state = state;
        m_icon.setIcon(QIcon(TrayState::iconPath(state)));
    }
    m_icon.setToolTip(toolTip());
}

void TrayController::rebuildHosts()
{
    // One line per host: its state colour, name, engine and what it is doing. Clicking one
    // opens the window. (Switching engines and leases will hang off these once the host
    // controllers exist.) Updated in place: this runs for every request that starts or ends.
    const int rows = m_hosts->rowCount();
    while (m_hostActions.size() > rows) {
        QAction *a = m_hostActions.takeLast();
        m_menu.removeAction(a);
        a->deleteLater();
    }
    while (m_hostActions.size() < rows) {
        auto *a = new QAction(this);
        connect(a, &QAction::triggered, this, &TrayController::openWindowRequested);
        m_menu.insertAction(m_noHosts, a);
        m_hostActions.append(a);
    }
    m_noHosts->setVisible(rows == 0);
    for (int row = 0; row < rows; ++row) {
        const QModelIndex index = m_hosts->index(row);
        const auto activity = HostActivity(index.data(HostTableModel::ActivityRole).toInt());
        const QString name = index.data(HostTableModel::NameRole).toString();
        const QString engine = index.data(HostTableModel::EngineRole).toString();
        const QString lease = index.data(HostTableModel::LeaseOwnerRole).toString();
        const int inFlight = index.data(HostTableModel::InFlightRole).toInt();
        QString text = lease.isEmpty() ? tr("%1 — %2, %3").arg(name, engine, HostTableModel::activityTitle(activity))
                                       : tr("%1 — leased by %2").arg(name, lease);
        if (inFlight > 0)
            text += u" · "_s + tr("%n in flight", nullptr, inFlight);
        QAction *a = m_hostActions.at(row);
        if (a->text() != text)
            a->setText(text);
        if (a->data().toInt() != int(activity) + 1) {
            a->setData(int(activity) + 1);
            a->setIcon(StatusPalette::dot(StatusPalette::forActivity(activity)));
        }
        a->setToolTip(index.data(HostTableModel::ActivityTextRole).toString());
    }
}

} // namespace switchyard
