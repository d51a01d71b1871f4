#pragma once

#include "dialogs/switchenginedialog.h"

#include <QListView>
#include <QPointer>
#include <QTimer>

class QAction;

namespace switchyard {

class Clock;
class HostCardDelegate;
class HostTableModel;
class RelayService;

// The fleet at a glance: one card per host (see HostCardDelegate), with what can be done to a
// host in its context menu: refresh, take or release a lease (through the host's controller).
// Switching engines on command is not there yet: its action is, disabled, and says so.
class HostsView final : public QListView
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HostsView)

public:
    HostsView(HostTableModel *model, const Clock &clock, QWidget *parent = nullptr);

    void setService(switchyard::RelayService *service);

    QAction *refreshAction() const { return m_refresh; }
    QAction *switchEngineAction() const { return m_switchEngine; }
    QAction *takeLeaseAction() const { return m_takeLease; }
    QAction *releaseLeaseAction() const { return m_releaseLease; }
    QAction *editHostAction() const { return m_editHost; }
    QString currentHost() const;
    // The host's engines and the models each serves, for the Switch Engine dialog.
    QList<SwitchEngineDialog::Engine> enginesOf(const QString &host) const;

    QSize sizeHint() const override;
    // Height that shows every card at the given width.
    int heightForWidth(int width) const override;
    QSize minimumSizeHint() const override;
    // How many of so many cards a row holds at a width, and how wide each is then.
    static int cardsPerRow(int width, int cards);
    static int cardWidthFor(int width, int cards);

Q_SIGNALS:
    void message(const QString &text);
    // "Edit Host…": the hosts editor, at this host (empty: none selected).
    void editHostRequested(const QString &host);

protected:
    void contextMenuEvent(QContextMenuEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    void updateActions();
    void fitCards();
    void switchEngine();
    void takeLease();

    HostTableModel *m_model;
    HostCardDelegate *m_delegate;
    QPointer<RelayService> m_service;
    QAction *m_refresh;
    QAction *m_switchEngine;
    QAction *m_takeLease;
    QAction *m_releaseLease;
    QAction *m_copyUrl;
    QAction *m_editHost;
    QTimer m_repaint;
};

} // namespace switchyard
