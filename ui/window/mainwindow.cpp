#include "window/mainwindow.h"

#include "app/appsettings.h"
#include "app/relayservice.h"
#include "app/remoterelayfeed.h"
#include "relay/relay.h"
#include "catalog/catalog.h"
#include "demo/demofleet.h"
#include "dialogs/exportdialog.h"
#include "shared/clientconfigexporter.h"
#include "models/hostsummary.h"
#include "models/hosttablemodel.h"
#include "models/inflightcounter.h"
#include "models/modeltablemodel.h"
#include "models/requestlogfilterproxy.h"
#include "shared/statuspalette.h"
#include "shared/uiresources.h"
#include "store/historystore.h"
#include "store/requestlogmodel.h"
#include "timeline/timelineview.h"
#include "timeline/timelinewidget.h"
#include "window/hostsview.h"
#include "window/modelsview.h"
#include "window/noticebar.h"
#include "window/relayclient.h"
#include "window/requestlogview.h"
#include "window/windowplacement.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QScreen>
#include <QStatusBar>
#include <QSplitter>
#include <QTabWidget>
#include <QVBoxLayout>

namespace switchyard {

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace {

QString dotHtml(const QColor &c)
{
    return u"<span style=\"color:%1\">●</span>"_s.arg(c.name());
}

} // namespace

MainWindow::MainWindow(const Clock &clock, HostTableModel *hosts, InFlightCounter *inFlight, AppSettings *settings,
                       QWidget *parent)
    : QMainWindow(parent)
    , m_clock(clock)
    , m_hosts(hosts)
    , m_inFlight(inFlight)
    , m_settings(settings)
    , m_modelTable(new ModelTableModel(clock, this))
    , m_requestLog(new RequestLogModel(this))
    , m_client(new RelayClient(this))
    , m_notice(new NoticeBar(this))
    , m_hostsView(new HostsView(hosts, clock, this))
    , m_timelineView(new TimelineView(clock, hosts, this))
    , m_modelsView(new ModelsView(m_modelTable, hosts, m_client, this))
    , m_requestLogView(new RequestLogView(m_requestLog, hosts, this))
    , m_tabs(new QTabWidget(this))
    , m_splitter(new QSplitter(Qt::Vertical, this))
    , m_hostsSummary(new QLabel(this))
    , m_endpointLabel(new QLabel(this))
    , m_hostsLabel(new QLabel(this))
    , m_inFlightLabel(new QLabel(this))
{
    setWindowTitle(tr("Switchyard"));
    initUiResources();
    setWindowIcon(QIcon(u":/icons/switchyard.svg"_s));

    m_tabs->addTab(m_modelsView, tr("Models"));
    m_tabs->addTab(m_requestLogView, tr("Requests"));
    m_tabs->setDocumentMode(true);

    // Top to bottom: the hosts, the timeline, then the tables, in a splitter: a short window
    // gives the tables their share (the cards scroll), and the user moves the handles.
    m_hostsSummary->setForegroundRole(QPalette::PlaceholderText);
    auto *central = new QWidget(this);
    auto *layout = new QVBoxLayout(central);
    layout->setContentsMargins(10, 8, 10, 4);
    layout->setSpacing(8);
    layout->addWidget(m_notice);
    m_splitter->addWidget(section(tr("Hosts"), m_hostsView, m_hostsSummary));
    m_splitter->addWidget(section(tr("Switch timeline"), m_timelineView));
    m_splitter->addWidget(m_tabs);
    m_splitter->setChildrenCollapsible(false);
    m_splitter->setStretchFactor(0, 0);
    m_splitter->setStretchFactor(1, 0);
    m_splitter->setStretchFactor(2, 1);
    layout->addWidget(m_splitter, 1);
    setCentralWidget(central);
    setMinimumSize(MinimumSize);

    // Status bar: where, how many up, how busy.
    for (QLabel *label : {m_endpointLabel, m_hostsLabel, m_inFlightLabel}) {
        label->setTextFormat(Qt::RichText);
        label->setContentsMargins(8, 0, 8, 0);
        statusBar()->addPermanentWidget(label);
    }
    m_endpointLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_timelineView->setInFlight(inFlight);
    buildMenus();

    connect(m_hostsView, &HostsView::message, this, &MainWindow::showStatusMessage);
    connect(m_hostsView, &HostsView::editHostRequested, this, &MainWindow::hostsEditorRequested);
    connect(m_modelsView, &ModelsView::message, this, &MainWindow::showStatusMessage);
    connect(m_requestLogView, &RequestLogView::message, this, &MainWindow::showStatusMessage);
    connect(hosts, &QAbstractItemModel::dataChanged, this, &MainWindow::updateStatus);
    connect(hosts, &QAbstractItemModel::modelReset, this, &MainWindow::updateStatus);
    connect(inFlight, &InFlightCounter::changed, this, &MainWindow::updateStatus);
    connect(m_modelTable, &QAbstractItemModel::modelReset, this, &MainWindow::updateTabTitles);
    connect(m_modelTable, &QAbstractItemModel::modelReset, this, [this] {
        m_requestLogView->setAliases(m_service ? m_service->catalog()->aliases() : QStringList());
    });
    // The tab counts the rows its table shows: the log without the window's own calls and
    // what the filters hide.
    QAbstractItemModel *shownRequests = m_requestLogView->proxy();
    connect(shownRequests, &QAbstractItemModel::rowsInserted, this, &MainWindow::updateTabTitles);
    connect(shownRequests, &QAbstractItemModel::rowsRemoved, this, &MainWindow::updateTabTitles);
    connect(shownRequests, &QAbstractItemModel::modelReset, this, &MainWindow::updateTabTitles);
    connect(shownRequests, &QAbstractItemModel::layoutChanged, this, &MainWindow::updateTabTitles);
    m_statusTimer.setInterval(1s);
    connect(&m_statusTimer, &QTimer::timeout, this, &MainWindow::updateStatus);
    m_statusTimer.start();

    placeOnScreen();
    if (m_settings && m_splitter->restoreState(m_settings->windowState())) {
        m_splitByUser = true;
        m_checkRestoredSplit = true;
        m_restoredHostsHeight = m_splitter->sizes().value(0);
    }
    connect(m_splitter, &QSplitter::splitterMoved, this, [this] {
        m_splitByUser = true;
        m_checkRestoredSplit = false;
    });
    // A banner above the splitter, or the window, resizes it: the cards stay whole (after the
    // splitter's own layout, hence queued).
    m_splitter->installEventFilter(this);
    // The cards' height is known once the hosts are: fit again then (after their layout).
    connect(hosts, &QAbstractItemModel::modelReset, this, &MainWindow::fitSplitter, Qt::QueuedConnection);
    connect(hosts, &QAbstractItemModel::rowsInserted, this, &MainWindow::fitSplitter, Qt::QueuedConnection);
    connect(hosts, &QAbstractItemModel::rowsRemoved, this, &MainWindow::fitSplitter, Qt::QueuedConnection);
    // A card grows a line (a GPU row, a load's progress): still whole.
    connect(hosts, &QAbstractItemModel::dataChanged, this, &MainWindow::fitSplitter, Qt::QueuedConnection);
    updateStatus();
    updateTabTitles();
}

MainWindow::~MainWindow() = default;

QWidget *MainWindow::section(const QString &title, QWidget *content, QWidget *trailing)
{
    auto *box = new QWidget(this);
    auto *layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    auto *header = new QHBoxLayout;
    auto *label = new QLabel(title, box);
    QFont f = label->font();
    f.setBold(true);
    f.setPointSizeF(f.pointSizeF() * 1.15);
    label->setFont(f);
    header->addWidget(label);
    header->addSpacing(12);
    if (trailing)
        header->addWidget(trailing);
    header->addStretch(1);
    layout->addLayout(header);
    layout->addWidget(content, 1);
    return box;
}

void MainWindow::buildMenus()
{
    QMenu *relay = menuBar()->addMenu(tr("&Relay"));
    QAction *copy = relay->addAction(tr("&Copy Endpoint URL"));
    connect(copy, &QAction::triggered, this, [this] {
        const QString url = clientUrl();
        if (url.isEmpty())
            return;
        QApplication::clipboard()->setText(url);
        showStatusMessage(tr("Copied %1").arg(url));
    });
    QAction *exportConfig = relay->addAction(tr("&Export Client Config…"));
    exportConfig->setToolTip(tr("opencode, Claude Code or pi settings that point at this relay"));
    connect(exportConfig, &QAction::triggered, this, [this] { showExportDialog(); });
    QAction *reload = relay->addAction(tr("&Reload Config"));
    reload->setShortcut(QKeySequence::Refresh);
    connect(reload, &QAction::triggered, this, &MainWindow::reloadRequested);
    QAction *settings = relay->addAction(tr("&Settings…"));
    settings->setShortcut(QKeySequence::Preferences);
    settings->setMenuRole(QAction::PreferencesRole);
    connect(settings, &QAction::triggered, this, &MainWindow::settingsRequested);
    relay->addSeparator();
    QAction *quit = relay->addAction(tr("&Quit"));
    quit->setShortcut(QKeySequence::Quit);
    quit->setMenuRole(QAction::QuitRole);
    connect(quit, &QAction::triggered, this, &MainWindow::quitRequested);

    QMenu *hosts = menuBar()->addMenu(tr("&Hosts"));
    hosts->setToolTipsVisible(true);
    hosts->addAction(m_hostsView->refreshAction());
    hosts->addSeparator();
    hosts->addAction(m_hostsView->switchEngineAction());
    hosts->addAction(m_hostsView->takeLeaseAction());
    hosts->addAction(m_hostsView->releaseLeaseAction());
    hosts->addSeparator();
    QAction *editHosts = hosts->addAction(tr("E&dit Hosts…"));
    editHosts->setToolTip(tr("Add, change or remove hosts and their engines in the config file"));
    connect(editHosts, &QAction::triggered, this, [this] { emit hostsEditorRequested(m_hostsView->currentHost()); });

    QMenu *models = menuBar()->addMenu(tr("&Models"));
    models->addAction(m_modelsView->loadAction());
    models->addAction(m_modelsView->unloadAction());

    QMenu *view = menuBar()->addMenu(tr("&View"));
    QAction *showModels = view->addAction(tr("&Models"));
    showModels->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_1));
    connect(showModels, &QAction::triggered, this, [this] { m_tabs->setCurrentWidget(m_modelsView); });
    QAction *showRequests = view->addAction(tr("&Requests"));
    showRequests->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_2));
    connect(showRequests, &QAction::triggered, this, [this] { m_tabs->setCurrentWidget(m_requestLogView); });
    view->addSeparator();
    TimelineWidget *timeline = m_timelineView->timeline();
    QAction *zoomIn = view->addAction(tr("Timeline Zoom &In"));
    zoomIn->setShortcut(QKeySequence::ZoomIn);
    connect(zoomIn, &QAction::triggered, timeline, &TimelineWidget::zoomIn);
    QAction *zoomOut = view->addAction(tr("Timeline Zoom &Out"));
    zoomOut->setShortcut(QKeySequence::ZoomOut);
    connect(zoomOut, &QAction::triggered, timeline, &TimelineWidget::zoomOut);
    QAction *follow = view->addAction(tr("Timeline Follows &Now"));
    follow->setCheckable(true);
    follow->setChecked(timeline->isFollowing());
    connect(follow, &QAction::toggled, timeline, &TimelineWidget::setFollowing);
    connect(timeline, &TimelineWidget::followingChanged, follow, &QAction::setChecked);

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    QAction *about = help->addAction(tr("&About Switchyard"));
    about->setMenuRole(QAction::AboutRole);
    connect(about, &QAction::triggered, this, [this] {
        QMessageBox::about(this, tr("About Switchyard"),
                           tr("<h3>Switchyard %1</h3><p>One LAN endpoint in front of several llama.cpp GPU boxes.</p>"
                              "<p>Clients address models as <i>host-key</i>; Switchyard switches engines without "
                              "cutting a stream and answers in each client's own language when it cannot serve.</p>")
                               .arg(QStringLiteral(SWITCHYARD_VERSION)));
    });
}

void MainWindow::setRemote(RemoteRelayFeed *feed)
{
    if (m_remote)
        disconnect(m_remote, nullptr, this, nullptr);
    disconnect(m_liveRequests);
    m_service = nullptr;
    m_remote = feed;
    m_modelTable->setRemote(feed);
    m_hostsView->setService(nullptr);
    m_client->setRemote(feed);   // loads and unloads through its admin API
    if (feed) {
        connect(feed, &RemoteRelayFeed::connectionChanged, this, &MainWindow::updateStatus);
        connect(feed, &RemoteRelayFeed::liveChanged, this, &MainWindow::updateStatus);
        // Its requests in flight show in the log as the local relay's do.
        connect(feed, &RemoteRelayFeed::requestActive, this,
                [this](const RequestRecord &record, RequestPhase phase) { m_requestLog->updateLive(record, phase); });
        setWindowTitle(tr("Switchyard — watching %1").arg(feed->relay().authority()));
    }
    updateStatus();
}

void MainWindow::setService(RelayService *service)
{
    if (m_remote) {
        disconnect(m_remote, nullptr, this, nullptr);
        m_remote = nullptr;
    }
    m_service = service;
    m_modelTable->setService(service);
    m_hostsView->setService(service);
    m_client->setRemote(nullptr);
    if (service) {
        m_client->setEndpoint(service->endpoint());
        m_client->setApiKey(service->config().access.clientKeys.value(0).key);
        if (service->config().access.tls())
            m_client->setRelayCertificates(QSslCertificate::fromPath(service->config().access.tlsCertFile));
        m_requestLogView->setAliases(service->catalog()->aliases());
        // Requests in flight show in the log as they go; the store's finished record replaces
        // each (so only with a store: without one the log has nothing to end them with).
        disconnect(m_liveRequests);
        if (m_history) {
            m_liveRequests = connect(service->relay(), &Relay::requestProgress, m_requestLog,
                                     [this](const RequestRecord &record, RequestPhase phase) {
                                         if (m_history)
                                             m_requestLog->updateLive(m_history->redacted(record), phase);
                                     });
        }
        // The demo's simulated boxes must not pass for a real fleet at a glance.
        setWindowTitle(DemoFleet::isDemo(service->config())
                           ? tr("Switchyard — Demo fleet — %1").arg(service->endpoint().authority())
                           : tr("Switchyard — %1").arg(service->endpoint().authority()));
    }
    updateStatus();
}

ExportDialog *MainWindow::showExportDialog(const QString &client)
{
    QUrl endpoint = m_service ? m_service->endpoint() : QUrl();
    const QString key = m_service ? m_service->config().access.clientKeys.value(0).key : QString();
    QStringList aliases = m_service ? m_service->catalog()->aliases() : QStringList();
    if (m_remote) {
        // The watched relay's models as its admin API listed them, for configs that point at it.
        endpoint = m_remote->baseUrl();
        aliases.clear();
        for (const RemoteRelayFeed::Model &m : m_remote->models())
            aliases.append(m.alias);
    }
    auto *dialog = new ExportDialog(endpoint, key, aliases, this);
    if (m_remote)
        dialog->exporter()->setModelList(m_remote->modelsJson());
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    if (!client.isEmpty())
        dialog->setClient(client);
    dialog->show();
    return dialog;
}

void MainWindow::setHistory(HistoryStore *store)
{
    m_modelTable->setHistory(store);
    m_timelineView->setHistory(store);
    const bool another = m_history && m_history != store;
    m_history = store;
    disconnect(m_recorded);
    if (another)
        m_requestLog->clear();   // a watched relay's history, or back to the local one
    if (!store)
        return;
    // The last day's requests, then every new one as the store records it.
    m_requestLog->loadFrom(*store, QDateTime::currentDateTime().addDays(-1));
    m_recorded = connect(store, &HistoryStore::requestRecorded, m_requestLog, &RequestLogModel::append);
}

QString MainWindow::clientUrl() const
{
    // Watching: the watched relay's, which the relay here (not running) has nothing to do with.
    if (m_remote)
        return m_remote->clientUrl().toString();
    return m_service ? m_service->endpoint().toString() + u"/v1"_s : QString();
}

QString MainWindow::statusText() const
{
    return QStringList{m_endpointLabel->text(), m_hostsLabel->text(), m_inFlightLabel->text()}.join(u" | "_s);
}

void MainWindow::updateStatus()
{
    const int total = m_hosts->rowCount();
    const int inFlight = m_remote ? m_hosts->inFlightTotal() : m_inFlight->total();
    if (m_remote) {
        // Watching a relay elsewhere: say so, and whether it answers.
        const QString relay = m_remote->relay().toString().toHtmlEscaped();
        QString text = m_remote->error().isEmpty()
                           ? tr("Watching the relay at <b>%1</b>").arg(relay)
                           : tr("Watching the relay at <b>%1</b>: %2").arg(relay, m_remote->error().toHtmlEscaped());
        // Live from its event stream, or polled and why.
        if (const QString live = m_remote->liveStatus(); !live.isEmpty())
            text += u" · "_s + live.toHtmlEscaped();
        m_endpointLabel->setText(text);
    } else {
        const QString endpoint = m_service ? m_service->endpoint().toString() : tr("not listening");
        m_endpointLabel->setText(tr("Listening on <b>%1</b>").arg(endpoint.toHtmlEscaped()));
    }
    // A leased host is neither up nor a problem, nor is one asleep: each counted on its own.
    const HostSummary hosts(m_hosts->activities());
    m_hostsLabel->setText(dotHtml(hosts.color()) + u" "_s + hosts.statusBarText());
    m_inFlightLabel->setText((inFlight ? dotHtml(StatusPalette::good()) : dotHtml(StatusPalette::idle())) + u" "_s
                             + tr("%n request(s) in flight", nullptr, inFlight));
    QStringList summary;
    if (total == 0)
        summary.append(tr("No hosts configured: choose a config file in Settings"));
    else
        summary.append(hosts.text());
    if (inFlight)
        summary.append(tr("%n in flight", nullptr, inFlight));
    const QString text = summary.join(u" · "_s);
    if (m_hostsSummary->text() != text)
        m_hostsSummary->setText(text);
}

void MainWindow::updateTabTitles()
{
    m_tabs->setTabText(m_tabs->indexOf(m_modelsView), tr("Models (%1)").arg(m_modelTable->rowCount()));
    m_tabs->setTabText(m_tabs->indexOf(m_requestLogView), tr("Requests (%1)").arg(m_requestLogView->proxy()->rowCount()));
}

void MainWindow::activate()
{
    if (isMinimized())
        showNormal();
    else
        show();
    raise();
    activateWindow();
}

void MainWindow::showStatusMessage(const QString &text)
{
    statusBar()->showMessage(text, 6000);
}

void MainWindow::placeOnScreen()
{
    // The size the user left the window at, if this screen has room for it (a laptop's 1366×768
    // after a 1920×1200 monitor does not); else ours, made to fit the screen, in its middle.
    const QRect available = screen()->availableGeometry();
    const QByteArray saved = m_settings ? m_settings->windowGeometry() : QByteArray();
    if (WindowPlacement::fits(saved, available) && restoreGeometry(saved))
        return;
    const QSize size = WindowPlacement::defaultSize(available).expandedTo(MinimumSize);
    resize(size);
    move(available.center() - QPoint((size.width() + WindowPlacement::FrameAllowance.width()) / 2,
                                     (size.height() + WindowPlacement::FrameAllowance.height()) / 2));
}

void MainWindow::showEvent(QShowEvent *event)
{
    QMainWindow::showEvent(event);
    // The frame is the window manager's, known only now.
    QMetaObject::invokeMethod(this, &MainWindow::keepOnScreen, Qt::QueuedConnection);
}

void MainWindow::keepOnScreen()
{
    if (!isVisible() || isMaximized() || isFullScreen())
        return;
    const QRect available = screen()->availableGeometry();
    const QRect frame = frameGeometry();
    if (available.contains(frame))
        return;
    const QRect fitted = WindowPlacement::inside(frame, available);
    resize(fitted.size() - (frame.size() - size()));
    move(fitted.topLeft());
}

bool MainWindow::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_splitter && event->type() == QEvent::Resize)
        QMetaObject::invokeMethod(this, &MainWindow::fitSplitter, Qt::QueuedConnection);
    return QMainWindow::eventFilter(watched, event);
}

void MainWindow::resizeEvent(QResizeEvent *event)
{
    QMainWindow::resizeEvent(event);
    fitSplitter();
}

void MainWindow::fitSplitter()
{
    const QList<int> sizes = m_splitter->sizes();
    int total = 0;
    for (int size : sizes)
        total += size;
    if (total <= 0 || sizes.size() != 3)
        return;
    QWidget *hostsSection = m_splitter->widget(0);
    const int hostsMin = hostsSection->minimumSizeHint().height();
    const int hostsNeed = std::max(hostsMin, hostsSection->sizeHint().height());   // every card whole
    const int timelineMin = m_splitter->widget(1)->minimumSizeHint().height();
    const int tablesMin = m_splitter->widget(2)->minimumSizeHint().height();
    // A split restored from the last session that would cut the cards (a banner squeezed them
    // then) is dropped once the cards are known, not kept for good.
    if (m_checkRestoredSplit && m_hosts->rowCount() > 0 && m_splitter->isVisible()) {
        m_checkRestoredSplit = false;
        if (m_restoredHostsHeight < hostsNeed)
            m_splitByUser = false;
    }
    if (m_splitByUser) {
        // The user's split, but the cards stay whole: what they lack comes from the tables (a
        // banner above took room, more hosts came).
        const int grow = std::min(hostsNeed - sizes[0], sizes[2] - tablesMin);
        if (grow > 0)
            m_splitter->setSizes({sizes[0] + grow, sizes[1], sizes[2] - grow});
        return;
    }
    // Until the user moves a handle: the cards whole; the tables at least 40 % (a page of them);
    // the timeline as tall as its lanes need in what is left, its lanes scrolling in a short
    // window. Only a window too short for all that gets scrolling cards (at least one whole row).
    const int hosts = std::clamp(hostsNeed, hostsMin, std::max(hostsMin, total - timelineMin - tablesMin));
    const int tablesShare = std::max(tablesMin, (m_splitter->height() * 40 + 99) / 100);   // of what is seen, handles too
    const int timeline = std::clamp(m_splitter->widget(1)->sizeHint().height(), timelineMin,
                                    std::max(timelineMin, total - hosts - tablesShare));
    m_splitter->setSizes({hosts, timeline, std::max(0, total - hosts - timeline)});
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (m_settings) {
        m_settings->setWindowGeometry(saveGeometry());
        m_settings->setWindowState(m_splitter->saveState());
        m_settings->sync();
    }
    QMainWindow::closeEvent(event);
    if (event->isAccepted())
        emit closed();
}

} // namespace switchyard
