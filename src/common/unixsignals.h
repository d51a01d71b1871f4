#pragma once

#include <QObject>

class QSocketNotifier;

namespace switchyard {

// Turns SIGTERM and SIGINT (stop) and SIGHUP (reload the config, as `systemctl reload` sends) into
// Qt signals through a self-pipe, so they are handled on the event loop, not in a signal handler.
class UnixSignals final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(UnixSignals)

public:
    explicit UnixSignals(QObject *parent = nullptr);
    ~UnixSignals() override;

Q_SIGNALS:
    void terminationRequested(int signalNumber);
    void reloadRequested();

private:
    QSocketNotifier *m_notifier = nullptr;
};

} // namespace switchyard
