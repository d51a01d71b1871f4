#pragma once

#include "tray/traystate.h"

#include <QMenu>
#include <QObject>
#include <QPointer>
#include <QSystemTrayIcon>
#include <QUrl>

#include <memory>

class QAction;

namespace switchyard {

class ClientConfigExporter;
class HostTableModel;
class InFlightCounter;

// The tray icon and its menu (syncthingtray's behaviour): the icon shows idle, busy,
// switching or error; the menu opens the window, lists the hosts with their engine, copies
// the endpoint URL, exports client configs, and quits. A click toggles the window.
class TrayController final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TrayController)

public:
    TrayController(HostTableModel *hosts, InFlightCounter *inFlight, QObject *parent = nullptr);
    ~TrayController() override;

    static bool isAvailable();
    // Shows the icon when the desktop has a tray; false when it has none.
    bool show();
    bool isVisible() const;
    void hide();

    void setEndpoint(const QUrl &endpoint, const QString &apiKey = {});
    // The relay's model list when known here (a relay watched elsewhere): see ClientConfigExporter.
    void setModelList(const QByteArray &json);
    void showMessage(const QString &title, const QString &text,
                     QSystemTrayIcon::MessageIcon icon = QSystemTrayIcon::Information);

    TrayState::Kind state() const { return m_state; }
    QString toolTip() const;
    QMenu *menu() { return &m_menu; }
    QSystemTrayIcon *icon() { return &m_icon; }
    QAction *openAction() const { return m_open; }
    ClientConfigExporter *exporter() const { return m_exporter; }
    // Runs the export command for a client, copies its output to the clipboard.
    void exportConfig(const QString &client);

Q_SIGNALS:
    void openWindowRequested();
    void toggleWindowRequested();
    void settingsRequested();
    void exportDialogRequested();
    void quitRequested();

private:
    void updateState();
    void rebuildHosts();

    HostTableModel *m_hosts;
    InFlightCounter *m_inFlight;
    QSystemTrayIcon m_icon;
    QMenu m_menu;
    QAction *m_open;
    QAction *m_hostsHeader;
    QAction *m_hostsEnd;
    QAction *m_noHosts;
    QList<QAction *> m_hostActions;
    QAction *m_copyEndpoint;
    ClientConfigExporter *m_exporter;
    QUrl m_endpoint;
    TrayState::Kind m_state = TrayState::Kind::Idle;
};

} // namespace switchyard
