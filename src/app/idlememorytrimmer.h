#pragma once

#include <QObject>
#include <QPointer>
#include <QTimer>

#include <chrono>

namespace switchyard {

class Relay;

// Gives the memory a burst of streams used back to the system once the relay is idle again.
// glibc keeps freed heap for reuse, so after 200 streams the relay stayed ~15 MiB above its idle
// size although every socket was closed; malloc_trim() returns the free pages.
class IdleMemoryTrimmer final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(IdleMemoryTrimmer)

public:
    explicit IdleMemoryTrimmer(std::chrono::milliseconds quietFor = std::chrono::seconds(1),
                               QObject *parent = nullptr);

    // Watches this relay (a new one replaces the last): trims when it has had no request in
    // flight for quietFor.
    void watch(Relay *relay);
    int trims() const { return m_trims; }

private:
    void onRequestFinished();
    void trimIfIdle();

    QPointer<Relay> m_relay;   // the service and its relay go away on a reload
    QTimer m_quiet;
    int m_trims = 0;
};

} // namespace switchyard
