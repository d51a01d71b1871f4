#include "window/hostfiltercombo.h"

#include <QSignalBlocker>

namespace switchyard {

HostFilterCombo::HostFilterCombo(QWidget *parent)
    : QComboBox(parent)
{
    setAccessibleName(tr("Host"));
    setSizeAdjustPolicy(QComboBox::AdjustToContents);
    setHosts({});
}

void HostFilterCombo::setHosts(const QStringList &hosts)
{
    const QString current = host();
    const QSignalBlocker block(this);
    clear();
    addItem(tr("All hosts"), QString());
    for (const QString &h : hosts)
        addItem(h, h);
    const int index = findData(current);
    setCurrentIndex(index < 0 ? 0 : index);
}

QString HostFilterCombo::host() const
{
    return currentData().toString();
}

} // namespace switchyard
