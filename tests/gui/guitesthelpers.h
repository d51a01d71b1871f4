#pragma once

#include "guifleet.h"

#include "tray/autostart.h"
#include "app/catalogeventrecorder.h"
#include "hosts/hostcontroller.h"
#include "testenginedriver.h"
#include "app/configreloader.h"
#include "desktop/desktopapp.h"
#include "shared/clientconfigexporter.h"
#include "dialogs/exportdialog.h"
#include "models/hosttablemodel.h"
#include "dialogs/switchenginedialog.h"
#include "window/hostcarddelegate.h"
#include "window/hostsview.h"
#include "models/inflightcounter.h"
#include "journal/journalformat.h"
#include "window/mainwindow.h"
#include "models/modelfilterproxy.h"
#include "window/modelsview.h"
#include "models/modeltablemodel.h"
#include "window/noticebar.h"
#include "app/appsettings.h"
#include "window/relayclient.h"
#include "timeline/requestdensity.h"
#include "window/requestdetailspane.h"
#include "models/requestlogfilterproxy.h"
#include "window/requestlogview.h"
#include "dialogs/settingsdialog.h"
#include "tray/singleinstance.h"
#include "app/startupconfig.h"
#include "shared/statuspalette.h"
#include "store/requestlogmodel.h"
#include "store/timelinemodel.h"
#include "timeline/timelinescale.h"
#include "timeline/timelineview.h"
#include "timeline/timelinewidget.h"
#include "demo/trafficgenerator.h"
#include "tray/traycontroller.h"
#include "tray/traystate.h"
#include "app/relayrunner.h"
#include "shared/uiresources.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QJsonArray>
#include <QPixmap>
#include <QClipboard>
#include <QComboBox>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QListWidget>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QSpinBox>
#include <QTableView>
#include <QTimeZone>
#include <QTest>

#include <QScopeGuard>
#include <QThread>

#include <algorithm>
#include <atomic>
#include <ctime>
#include <thread>

namespace guitest {

using namespace switchyard;
using namespace switchyard::test;
using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

inline RequestRecord record(const QString &host, const QString &model, int status, const QDateTime &at,
                     const QString &path = u"/v1/chat/completions"_s)
{
    RequestRecord r;
    r.startedAt = at;
    r.method = u"POST"_s;
    r.path = path;
    r.model = model;
    r.host = host;
    r.engine = u"main"_s;
    r.status = status;
    r.duration = 1500ms;
    r.clientAddress = u"192.0.2.10"_s;
    r.userAgent = u"opencode/1.0"_s;
    if (status == 200) {
        r.streamedTokens = 90;
        r.tokensPerSecond = 60.0;
        r.timeToFirstByte = 120ms;
    }
    return r;
}

inline HistoryEvent hostEvent(HistoryEvent::Kind kind, const QDateTime &at, const QString &engine,
                   std::optional<std::chrono::milliseconds> duration = std::nullopt)
{
    HistoryEvent e;
    e.kind = kind;
    e.at = at;
    e.host = u"h1"_s;
    e.engine = engine;
    e.duration = duration;
    e.model = u"h1-m1"_s;
    return e;
}

inline QString binDir()
{
    return qEnvironmentVariable("SWITCHYARD_BIN_DIR");
}

inline void stopProcess(QProcess &p)
{
    if (p.state() == QProcess::NotRunning)
        return;
    p.terminate();
    if (!p.waitForFinished(3000)) {
        p.kill();
        p.waitForFinished(3000);
    }
}

} // namespace guitest
