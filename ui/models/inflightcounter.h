#pragma once

#include "journal/requestrecord.h"

#include <QHash>
#include <QObject>
#include <QString>

namespace switchyard {

// Requests forwarded to a host and not finished yet, per host: for the host cards, the status
// bar and the tray. Fed from Relay::requestStarted / requestFinished.
class InFlightCounter final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(InFlightCounter)

public:
    explicit InFlightCounter(QObject *parent = nullptr);

    void started(const switchyard::RequestRecord &record);
    void finished(const switchyard::RequestRecord &record);

    int total() const { return int(m_started.size()); }
    int forHost(const QString &host) const { return m_perHost.value(host); }
    // Of the requests running on host, how many started before ms (since the epoch).
    int startedBefore(const QString &host, qint64 ms) const;

Q_SIGNALS:
    void changed();

private:
    // RequestRecord has no id until the store gives it one; its steady start time (ns) is
    // unique enough to pair a start with its finish.
    static qint64 keyOf(const RequestRecord &record);

    struct Running
    {
        QString host;
        qint64 startedMs;
    };
    QHash<qint64, Running> m_started;   // key -> where and since when
    QHash<QString, int> m_perHost;
};

} // namespace switchyard
