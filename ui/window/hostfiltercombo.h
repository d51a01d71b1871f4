#pragma once

#include <QComboBox>

namespace switchyard {

// "All hosts" or one host: the host filter of the models table and the request log. Refilled
// when the hosts change, it keeps the chosen host if it is still there.
class HostFilterCombo final : public QComboBox
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HostFilterCombo)

public:
    explicit HostFilterCombo(QWidget *parent = nullptr);

    void setHosts(const QStringList &hosts);   // emits no change signal
    QString host() const;                      // empty for all hosts
};

} // namespace switchyard
