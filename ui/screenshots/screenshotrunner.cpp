#include "screenshots/screenshotrunner.h"

#include "catalog/hostprobe.h"
#include "demo/trafficgenerator.h"
#include "desktop/desktopapp.h"
#include "app/remoterelayfeed.h"
#include "dialogs/addhostdialog.h"
#include "dialogs/hostseditordialog.h"
#include "dialogs/welcomedialog.h"
#include "models/hosttablemodel.h"
#include "shared/hostactivity.h"
#include "store/requestlogmodel.h"
#include "timeline/timelineview.h"
#include "timeline/timelinewidget.h"
#include "tray/traycontroller.h"
#include "tray/traystate.h"
#include "window/hostsview.h"
#include "window/mainwindow.h"
#include "window/modelsview.h"
#include "models/requestlogfilterproxy.h"
#include "window/requestlogview.h"
#include "window/windowplacement.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QIcon>
#include <QItemSelectionModel>
#include <QLineEdit>
#include <QMenu>
#include <QPainter>
#include <QTabWidget>
#include <QTableView>
#include <QTextStream>

namespace switchyard {

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace {

const QStringList Agents = {u"opencode/0.15.8"_s, u"claude-cli/2.0.14 (external, cli)"_s,
                            u"OpenAI/Python 1.109.1"_s, u"pi-coding-agent/0.9"_s};

} // namespace

ScreenshotRunner::ScreenshotRunner(DesktopApp *desktop, const QUrl &endpoint, QString directory, QObject *parent)
    : QObject(parent)
    , m_desktop(desktop)
    , m_endpoint(endpoint)
    , m_directory(std::move(directory))
{
    bool ok = false;
    m_duration = qEnvironmentVariable("SWITCHYARD_SCREENSHOT_SECONDS").toDouble(&ok);
    if (!ok || m_duration < 12)
        m_duration = 45;
    m_configPath = qEnvironmentVariable("SWITCHYARD_SCREENSHOT_CONFIG");
    if (m_configPath.isEmpty()) {
        m_scratch = std::make_unique<QTemporaryDir>();
        m_configPath = m_scratch->filePath(u"switchyard.json"_s);
    }
    m_watch = QUrl(qEnvironmentVariable("SWITCHYARD_SCREENSHOT_WATCH"));
    m_watchToken = qEnvironmentVariable("SWITCHYARD_SCREENSHOT_WATCH_TOKEN");
    m_ticker.setInterval(100ms);
    connect(&m_ticker, &QTimer::timeout, this, &ScreenshotRunner::tick);
}

ScreenshotRunner::~ScreenshotRunner() = default;

void ScreenshotRunner::start()
{
    MainWindow *window = m_desktop->window();
    // SWITCHYARD_SCREENSHOT_SIZE=1000x650: the window at another size, to look at it there.
    const QStringList size = qEnvironmentVariable("SWITCHYARD_SCREENSHOT_SIZE").split(u'x');
    if (size.size() == 2 && size.at(0).toInt() > 0 && size.at(1).toInt() > 0)
        window->resize(size.at(0).toInt(), size.at(1).toInt());
    else
        window->resize(1360, 860);
    window->show();
    m_traffic = new TrafficGenerator(m_endpoint, this);

    const double d = m_duration;
    // The 3090 runs flint-40b on its mainline engine first; qwen38 needs its fork engine (a switch,
    // after the flint streams drain), and flint later needs mainline back (a second switch).
    m_streamAliases = {u"3090-flint-40b"_s, u"a9-laguna-xs-q8"_s};
    m_steps = {
        {1.0, [this] { m_traffic->chat(u"3090-flint-40b"_s, 120, Agents.at(1)); }},
        {2.0, [this] { m_traffic->load(u"a9-strata-8b"_s); }},
        {3.0, [this] { m_traffic->chat(u"a9-laguna-xs-q8"_s, 80, Agents.at(0)); }},
        {4.0, [this] { m_traffic->chat(u"3060-ember-14b"_s, 60, Agents.at(3)); }},
        {6.0, [this] { m_traffic->complete(u"3090-llama-70b"_s, 16, Agents.at(2)); }},   // unknown: 404
        {8.0, [this] { m_streamAliases.append(u"a9-strata-8b"_s); }},
        // The replicated alias: served by the a9 or the 3060, whichever is best.
        {9.0, [this] { m_traffic->chat(u"strata-8b"_s, 60, Agents.at(0)); }},
        // The 3060's last request: 20 s later it stops its engine and sleeps (DemoFleet).
        {11.0, [this] { m_traffic->chat(u"3060-ember-14b"_s, 60, Agents.at(3)); }},
        {d * 0.30, [this] { m_streamAliases.removeAll(u"3090-flint-40b"_s); }},
        {d * 0.30 + 5.0, [this] { m_traffic->load(u"3090-qwen38-27b-128k"_s); }},
        {d * 0.30 + 8.5, [this] { m_streamAliases.append(u"3090-qwen38-27b-128k"_s); }},
        {d * 0.55, [this] { m_traffic->complete(u"claude-sonnet-4-5"_s, 16, Agents.at(1)); }},   // 404
        {d * 0.60, [this] { m_traffic->get(u"/v1/models"_s); }},
        {d * 0.62, [this] {
             m_streamAliases.removeAll(u"a9-strata-8b"_s);
         }},
        {d * 0.62 + 5.0, [this] { m_traffic->unload(u"a9-strata-8b"_s); }},
        {d * 0.72, [this] { m_streamAliases.removeAll(u"3090-qwen38-27b-128k"_s); }},
        {d * 0.72 + 4.0, [this] { m_streamAliases.append(u"3090-flint-40b"_s); }},
        {d - 6.0, [this] {
             // A burst, so the capture shows requests in flight.
             for (int i = 0; i < 6; ++i)
                 m_traffic->chat(m_streamAliases.at(i % m_streamAliases.size()), 180, Agents.at(i % Agents.size()));
         }},
        // qwen38 needs the 3090's fork engine while flint streams on mainline: it waits for the
        // switch at the capture (the request log's live rows).
        {d - 2.0, [this] { m_traffic->chat(u"3090-qwen38-27b-128k"_s, 40, Agents.at(0)); }},
        // The sleeping 3060 is woken by a request: its card and the request's row wait for it.
        {d - 2.5, [this] { m_traffic->chat(u"3060-ember-14b"_s, 40, Agents.at(3)); }},
        {d, [this] { capture(); }},
    };
    m_clock.start();
    m_ticker.start();
}

void ScreenshotRunner::tick()
{
    const double now = m_clock.elapsed() / 1000.0;
    for (Step &step : m_steps) {
        if (!step.done && now >= step.at) {
            step.done = true;
            step.run();
        }
    }
    if (!m_switchSaved)
        grabSwitchInProgress();
    if (now >= m_nextBackground && now < m_duration - 1) {
        background();
        m_nextBackground = now + 0.5 + m_random.bounded(900) / 1000.0;
    }
}

void ScreenshotRunner::background()
{
    if (m_streamAliases.isEmpty())
        return;
    const QString alias = m_streamAliases.at(int(m_random.bounded(qsizetype(m_streamAliases.size()))));
    const QString agent = Agents.at(int(m_random.bounded(qsizetype(Agents.size()))));
    if (m_random.bounded(6) == 0)
        m_traffic->complete(alias, 24 + int(m_random.bounded(40)), agent);
    else
        m_traffic->chat(alias, 40 + int(m_random.bounded(160)), agent);
}

void ScreenshotRunner::grabSwitchInProgress()
{
    HostTableModel *hosts = m_desktop->hosts();
    for (int row = 0; row < hosts->rowCount(); ++row) {
        const QModelIndex index = hosts->index(row);
        if (HostActivity(index.data(HostTableModel::ActivityRole).toInt()) != HostActivity::Switching)
            continue;
        const QDateTime since = index.data(HostTableModel::ActivitySinceRole).toDateTime();
        if (!since.isValid() || since.msecsTo(QDateTime::currentDateTime()) < 1800
            || index.data(HostTableModel::SwitchFromRole).toString().isEmpty())
            continue;
        // The cards and the timeline above the tables: the card's "from → to · 1 s", the bar hatched.
        MainWindow *window = m_desktop->window();
        window->hostsView()->selectionModel()->clearSelection();
        // The run so far and a little room: the switch's hatched bar wide enough to see.
        TimelineWidget *bars = window->timelineView()->timeline();
        bars->setSpan(std::chrono::milliseconds(m_clock.elapsed() + 6000));
        bars->setFollowing(true);
        QApplication::processEvents();
        QWidget *cards = window->hostsView()->parentWidget();
        QWidget *timeline = window->timelineView();
        const QRect area = QRect(cards->mapTo(window, QPoint(0, 0)), cards->size())
                               .united(QRect(timeline->mapTo(window, QPoint(0, 0)), timeline->size()));
        m_switchSaved = true;
        save(window->grab(area), u"switch.png"_s);
        return;
    }
}

bool ScreenshotRunner::save(QWidget *widget, const QString &name)
{
    return save(widget->grab(), name);
}

bool ScreenshotRunner::save(const QPixmap &pixmap, const QString &name)
{
    const QString path = QDir(m_directory).filePath(name);
    const bool ok = pixmap.save(path);
    QTextStream(stdout) << (ok ? "screenshot: " : "screenshot FAILED: ") << path << Qt::endl;
    if (!ok)
        ++m_failures;
    return ok;
}

bool ScreenshotRunner::saveTrayIcons()
{
    // The four tray states side by side, at panel size and larger, with their names.
    const QList<TrayState::Kind> kinds = {TrayState::Kind::Idle, TrayState::Kind::Busy, TrayState::Kind::Switching,
                                          TrayState::Kind::Error};
    const int cell = 150;
    QImage image(cell * int(kinds.size()), 120, QImage::Format_ARGB32_Premultiplied);
    image.fill(QApplication::palette().color(QPalette::Window));
    QPainter p(&image);
    p.setRenderHint(QPainter::Antialiasing);
    for (int i = 0; i < kinds.size(); ++i) {
        const QIcon icon(TrayState::iconPath(kinds.at(i)));
        const int x = i * cell;
        p.drawPixmap(x + cell / 2 - 44, 20, icon.pixmap(22, 22));
        p.drawPixmap(x + cell / 2 - 10, 8, icon.pixmap(48, 48));
        p.setPen(QApplication::palette().color(QPalette::WindowText));
        p.drawText(QRect(x, 70, cell, 30), Qt::AlignCenter, TrayState::title(kinds.at(i)));
    }
    p.end();
    const QString path = QDir(m_directory).filePath(u"tray-icons.png"_s);
    const bool ok = image.save(path);
    QTextStream(stdout) << (ok ? "screenshot: " : "screenshot FAILED: ") << path << Qt::endl;
    if (!ok)
        ++m_failures;
    return ok;
}

void ScreenshotRunner::capture()
{
    m_ticker.stop();
    QDir().mkpath(m_directory);
    MainWindow *window = m_desktop->window();
    TimelineWidget *timeline = window->timelineView()->timeline();
    timeline->setSpan(std::chrono::milliseconds(qint64((m_duration + 5) * 1000)));
    timeline->setFollowing(true);

    // A model selected in the Models tab; a streamed answer selected in the request log.
    window->tabs()->setCurrentWidget(window->modelsView());
    window->modelsView()->table()->selectRow(0);
    QTableView *log = window->requestLogView()->table();
    const auto selectFirst = [log](const std::function<bool(const QModelIndex &)> &wanted) {
        for (int row = 0; row < log->model()->rowCount(); ++row) {
            if (wanted(log->model()->index(row, RequestLogModel::TokensPerSecondColumn))) {
                log->selectRow(row);
                return true;
            }
        }
        return false;
    };
    selectFirst([](const QModelIndex &tps) {
        return !tps.data(RequestLogModel::LiveRole).toBool() && !tps.data().toString().isEmpty();
    });
    QApplication::processEvents();

    save(window, u"window.png"_s);
    save(window->hostsView()->parentWidget(), u"hosts.png"_s);
    save(window->timelineView(), u"timeline.png"_s);
    save(window->modelsView(), u"models.png"_s);
    window->tabs()->setCurrentWidget(window->requestLogView());
    QApplication::processEvents();
    save(window, u"window-requests.png"_s);
    save(window->requestLogView(), u"requests.png"_s);
    // The same log with the request that waits for the switch selected: live rows, their reasons.
    RequestLogView *requests = window->requestLogView();
    const bool waiting = selectFirst([requests, window](const QModelIndex &index) {
        const RequestRecord r = window->requestLog()->recordAt(requests->proxy()->mapToSource(index).row());
        return index.data(RequestLogModel::LiveRole).toBool() && r.waitReason.kind == WaitReason::Kind::Switch;
    });
    if (!waiting) {
        QTextStream(stdout) << "screenshot FAILED: no request waiting at the capture" << Qt::endl;
        ++m_failures;
    }
    QApplication::processEvents();
    save(window->requestLogView(), u"requests-live.png"_s);

    QMenu *menu = m_desktop->tray()->menu();
    menu->ensurePolished();
    menu->adjustSize();
    save(menu, u"tray-menu.png"_s);
    saveTrayIcons();

    // The window at a small laptop's size, as it opens on a 1366×768 screen (named by the
    // screen; its size is what the window picks there) and at a large screen's, each tab.
    const QSize size = window->size();
    const QList<std::pair<QString, QSize>> sizes{
        {u"1000x650"_s, QSize(1000, 650)},
        {u"1366x768"_s, WindowPlacement::defaultSize(QRect(0, 0, 1366, 768))},
        {u"1600x1000"_s, QSize(1600, 1000)}};
    for (const auto &[name, other] : sizes) {
        window->resize(other);
        for (QWidget *tab : {static_cast<QWidget *>(window->modelsView()), static_cast<QWidget *>(window->requestLogView())}) {
            window->tabs()->setCurrentWidget(tab);
            QApplication::processEvents();
            QApplication::processEvents();
            const QString suffix = tab == window->modelsView() ? QString() : u"-requests"_s;
            save(window, u"window-%1%2.png"_s.arg(name, suffix));
        }
    }
    window->resize(size);
    window->tabs()->setCurrentWidget(window->modelsView());
    QApplication::processEvents();
    m_traffic->abortAll();
    captureFirstRun();
}

void ScreenshotRunner::captureFirstRun()
{
    // The first run's welcome, and Add a GPU Box after it asked one of the demo's boxes. Neither
    // writes anything: the path they name is the script's scratch home, or a folder of our own.
    auto *welcome = new WelcomeDialog(m_configPath);
    welcome->setAttribute(Qt::WA_DeleteOnClose);
    welcome->show();
    welcome->adjustSize();
    QApplication::processEvents();
    save(welcome, u"welcome.png"_s);
    welcome->close();

    auto *add = new AddHostDialog(m_configPath);
    add->setAttribute(Qt::WA_DeleteOnClose);
    // The a9: two models, one of them loaded.
    const QModelIndex box = m_desktop->hosts()->index(m_desktop->hosts()->rowCount() - 1);
    add->urlField()->setText(box.data(HostTableModel::UrlRole).toString());
    add->show();
    auto done = [this, add] {
        QApplication::processEvents();
        save(add, u"add-host.png"_s);
        add->close();
        captureHostsEditor();
    };
    connect(add->probe(), &HostProbe::finished, this, done, Qt::SingleShotConnection);
    add->check();
}

void ScreenshotRunner::captureHostsEditor()
{
    // The demo fleet as a config file would have it: the 3090 run by its agent with two engines,
    // the a9 a plain router. Written only to m_configPath (see the constructor).
    QDir().mkpath(QFileInfo(m_configPath).absolutePath());
    QFile file(m_configPath);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
        QTextStream(stdout) << "screenshot FAILED: cannot write " << m_configPath << Qt::endl;
        ++m_failures;
        captureRemote();
        return;
    }
    file.write(R"({
  "hosts": {
    "3090": {
      "driver": "agent",
      "agent": "http://gpu-3090.lan:18767",
      "engines": {
        "mainline": { "url": "http://gpu-3090.lan:8080",
                      "argv": ["/opt/llama/bin/llama-server", "--models-dir", "/srv/models", "--port", "8080"] },
        "fork":     { "url": "http://gpu-3090.lan:8081",
                      "models": ["qwen38-27b-128k"],
                      "argv": ["/opt/llama-fork/bin/llama-server", "-m", "/srv/models/qwen38-27b.gguf", "--port", "8081"] }
      }
    },
    "a9": { "driver": "static", "engines": { "main": { "url": "http://a9.lan:8080" } } }
  }
}
)");
    file.close();
    auto *editor = new HostsEditorDialog(m_configPath);
    editor->setAttribute(Qt::WA_DeleteOnClose);
    editor->select(u"3090"_s);
    editor->show();
    QApplication::processEvents();
    save(editor, u"hosts-editor.png"_s);
    editor->select(u"3090"_s, u"fork"_s);
    QApplication::processEvents();
    save(editor, u"hosts-editor-engine.png"_s);
    editor->close();
    captureRemote();
}

void ScreenshotRunner::captureRemote()
{
    if (!m_watch.isValid() || m_watch.isEmpty()) {
        finish();
        return;
    }
    // The window watching the second relay: its hosts and its request log, the status bar saying so.
    MainWindow *window = m_desktop->window();
    m_desktop->watchRemote(m_watch, m_watchToken);
    window->tabs()->setCurrentWidget(window->requestLogView());
    auto *wait = new QTimer(this);
    auto *clock = new QElapsedTimer;
    clock->start();
    wait->setInterval(200ms);
    connect(wait, &QTimer::timeout, this, [this, wait, clock, window] {
        RemoteRelayFeed *remote = m_desktop->remote();
        const bool ready = remote && remote->connected() && !remote->hosts().isEmpty()
                           && window->requestLogView()->table()->model()->rowCount() > 0;
        // A poll more after the first full answer: the timeline and the cards catch up.
        if (!ready && clock->elapsed() < 20000)
            return;
        if (ready && clock->elapsed() < 5000)
            return;
        wait->stop();
        wait->deleteLater();
        delete clock;
        if (!ready) {
            QTextStream(stdout) << "screenshot FAILED: the watched relay " << m_watch.toString()
                                << " did not answer with hosts and requests: " << (remote ? remote->error() : QString())
                                << Qt::endl;
            ++m_failures;
        }
        window->requestLogView()->table()->selectRow(0);
        QApplication::processEvents();
        save(window, u"remote.png"_s);
        finish();
    });
    wait->start();
}

void ScreenshotRunner::finish()
{
    QTimer::singleShot(200ms, qApp, [this] { QCoreApplication::exit(m_failures ? 1 : 0); });
}

} // namespace switchyard
