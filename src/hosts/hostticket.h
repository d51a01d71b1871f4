#pragma once

#include <QPointer>

namespace switchyard {

class HostController;

// A request's place on a host, from the moment it asks until it is over. Move-only: whoever
// holds it owns the place, and the place is given back exactly once, when the ticket is released
// or destroyed, whatever ended the request (an answer, a refusal, a client that left, a host
// removed by a reload). A ticket whose host is gone releases nothing.
class HostTicket
{
public:
    HostTicket() = default;
    HostTicket(HostTicket &&other) noexcept;
    HostTicket &operator=(HostTicket &&other) noexcept;
    HostTicket(const HostTicket &) = delete;
    HostTicket &operator=(const HostTicket &) = delete;
    ~HostTicket() { release(); }

    void release();
    bool isHeld() const { return m_id != 0; }
    quint64 id() const { return m_id; }

private:
    friend class HostController;
    HostTicket(HostController *host, quint64 id);

    QPointer<HostController> m_host;
    quint64 m_id = 0;
};

} // namespace switchyard
