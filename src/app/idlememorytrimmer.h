#pragma once

#include <QObject>
#include <QPointer>
#include <QTimer>

#include <chrono>

namespace switchyard {

class Relay;

// Gives the memory a burst of streams used back to the system once the relay has been quiet for
// a while. glibc keeps freed heap for reuse, so after 200 streams the relay stayed ~15 MiB above
// its idle size although every socket was closed; malloc_trim() returns the free pages. Not
// sooner than 30 s: the next burst has to fault every returned page back in, and after a trim
// 1 s after each burst, 200 streams got their first events 30-40 ms later (docs/PERFORMANCE.md).
// An agent's turns come seconds apart; memory goes back when the session pauses.
class IdleMemoryTrimmer final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(IdleMemoryTrimmer)

public:
    explicit IdleMemoryTrimmer(std::chrono::milliseconds quietFor = std::chrono::seconds(30),
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
