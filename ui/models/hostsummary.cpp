#include "models/hostsummary.h"

#include "shared/statuspalette.h"

#include <QStringList>

namespace switchyard {

using namespace Qt::StringLiterals;

HostSummary::HostSummary(const QList<HostActivity> &hosts)
    : m_total(int(hosts.size()))
{
    for (HostActivity a : hosts) {
        switch (a) {
        case HostActivity::Up:
        case HostActivity::Idle:
        case HostActivity::Draining:
        case HostActivity::Switching:
            ++m_up;
            break;
        case HostActivity::Leased: ++m_leased; break;
        case HostActivity::Asleep: ++m_asleep; break;
        case HostActivity::Waking: ++m_waking; break;
        case HostActivity::Down: ++m_down; break;
        case HostActivity::Unknown: break;   // not polled yet: neither up nor down
        }
    }
}

QString HostSummary::byState() const
{
    QStringList parts{tr("%n up", nullptr, m_up)};
    if (m_asleep)
        parts.append(tr("%n asleep", nullptr, m_asleep));
    if (m_waking)
        parts.append(tr("%n waking", nullptr, m_waking));
    if (m_leased)
        parts.append(tr("%n leased", nullptr, m_leased));
    if (m_down)
        parts.append(tr("%n down", nullptr, m_down));
    return parts.join(u" · "_s);
}

QString HostSummary::statusBarText() const
{
    if (m_asleep || m_waking)
        return byState();
    QString text = tr("%1 of %n host(s) up", nullptr, m_total).arg(m_up);
    if (m_leased)
        text += u", "_s + tr("%n leased", nullptr, m_leased);
    return text;
}

QString HostSummary::text() const
{
    if (m_asleep || m_waking)
        return byState();
    QString text = tr("%1 of %n up", nullptr, m_total).arg(m_up);
    if (m_leased)
        text += u" · "_s + tr("%n leased", nullptr, m_leased);
    return text;
}

QColor HostSummary::color() const
{
    // A leased host is neither up nor a problem; nor is one that sleeps or wakes as planned.
    if (m_total == 0)
        return StatusPalette::idle();
    if (m_up + m_leased == m_total)
        return StatusPalette::good();
    if (m_up + m_leased + m_asleep + m_waking == m_total)
        return StatusPalette::idle();
    if (m_up == 0 && m_leased == 0)
        return StatusPalette::bad();
    return StatusPalette::busy();
}

} // namespace switchyard
