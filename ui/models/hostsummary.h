#pragma once

#include "shared/hostactivity.h"

#include <QColor>
#include <QCoreApplication>
#include <QList>
#include <QString>

namespace switchyard {

// The fleet in a few words, for the status bar, the hosts section and the tray: how many hosts
// serve, and how many are lent out, asleep, waking or down. A host that sleeps is resting as
// planned, not missing: with sleepers the words name each state ("2 up · 1 asleep") in a
// neutral colour, where "2 of 3 up" in the warning colour would call it a failure.
class HostSummary final
{
    Q_DECLARE_TR_FUNCTIONS(HostSummary)

public:
    explicit HostSummary(const QList<HostActivity> &hosts);

    int total() const { return m_total; }
    // Serving or will at the next request: up, idle, draining or switching (HostTableModel::hostsUp).
    int up() const { return m_up; }
    int leased() const { return m_leased; }
    int asleep() const { return m_asleep; }
    int waking() const { return m_waking; }
    int down() const { return m_down; }

    // The status bar's words: "2 of 3 host(s) up, 1 leased"; with a host asleep or waking
    // "2 up · 1 asleep".
    QString statusBarText() const;
    // The hosts section's and the tray's: "2 of 3 up · 1 leased"; with a host asleep or waking
    // "2 up · 1 asleep".
    QString text() const;
    // Green when every host serves or is lent out; grey (neutral) when the rest only sleep or
    // wake; red when none serves and one is down; amber otherwise.
    QColor color() const;

private:
    // "2 up · 1 asleep · 1 waking · 1 leased · 1 down": each state there is, named.
    QString byState() const;

    int m_total = 0;
    int m_up = 0;
    int m_leased = 0;
    int m_asleep = 0;
    int m_waking = 0;
    int m_down = 0;
};

} // namespace switchyard
