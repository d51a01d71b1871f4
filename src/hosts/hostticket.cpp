#include "hosts/hostticket.h"

#include "hosts/hostcontroller.h"

#include <utility>

namespace switchyard {

HostTicket::HostTicket(HostController *host, quint64 id)
    : m_host(host)
    , m_id(id)
{
}

HostTicket::HostTicket(HostTicket &&other) noexcept
    : m_host(std::move(other.m_host))
    , m_id(std::exchange(other.m_id, 0))
{
}

HostTicket &HostTicket::operator=(HostTicket &&other) noexcept
{
    if (this != &other) {
        release();
        m_host = std::move(other.m_host);
        m_id = std::exchange(other.m_id, 0);
    }
    return *this;
}

void HostTicket::release()
{
    const quint64 id = std::exchange(m_id, 0);
    if (id && m_host)
        m_host->release(id);
    m_host.clear();
}

} // namespace switchyard
