#pragma once

#include <QObject>

class QSocketNotifier;

namespace switchyard {

// Turns SIGTERM and SIGINT into a Qt signal through a self-pipe, so shutdown runs on the event
// loop instead of inside a signal handler.
class UnixSignals final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(UnixSignals)

public:
    explicit UnixSignals(QObject *parent = nullptr);
    ~UnixSignals() override;

Q_SIGNALS:
    void terminationRequested(int signalNumber);

private:
    QSocketNotifier *m_notifier = nullptr;
};

} // namespace switchyard
