#pragma once

#include <QDialog>

class QListWidget;

namespace switchyard {

// Which engine a host runs next: every engine of the host, the one running now marked, and the
// models each serves (as it listed them the last time it ran, or as configured).
class SwitchEngineDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SwitchEngineDialog)

public:
    struct Engine
    {
        QString name;
        QStringList models;
    };

    SwitchEngineDialog(const QString &host, const QList<Engine> &engines, const QString &current,
                       QWidget *parent = nullptr);

    QListWidget *list() const { return m_list; }
    QString engine() const;

private:
    QListWidget *m_list;
};

} // namespace switchyard
