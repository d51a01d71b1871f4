#pragma once

#include <QDateTime>
#include <QString>
#include <QStringList>

namespace switchyard {

// Why a host turns a request or a command away: a reason and its facts, never the words. The
// relay's catalogue (relay/clientreplies.cpp) words it for API clients, in English.
struct HostRefusal
{
    enum class Reason {
        Leased,           // 423: owner holds the GPU until `until`
        SwitchFailed,     // 424: `engine` did not come up; detail: the driver's reason
        StaticHost,       // 409: a switch asked of a host with one static engine
        NoSuchEngine,     // 400: `engine` is not one of `engines`
        LeaseTakenOver,   // 409: a waiting lease was taken by `owner` before it was granted
        LeaseReleased,    // 409: a waiting lease was released before it was granted
        WakeTimedOut,     // 424: the host did not answer within its wake timeout; detail: how long
    };

    Reason reason = Reason::Leased;
    QString host;
    QString engine;
    QStringList engines;
    QString owner;
    QDateTime until;
    QString detail;

    int status() const;
    // The facts in one line, for logs and tests of the host alone; never a client's text.
    QString facts() const;
};

// Words a HostRefusal for the callbacks of HostController, which hand on (status, text).
// Implemented by the relay's catalogue; the composition root passes it in.
class HostRefusalWording
{
public:
    virtual ~HostRefusalWording() = default;
    virtual QString words(const HostRefusal &refusal) const = 0;
};

} // namespace switchyard
