#pragma once

#include <QCoreApplication>
#include <QString>

namespace switchyard {

// Start at login: an XDG autostart entry, ~/.config/autostart/switchyard.desktop, that runs
// `switchyard --tray`. Turning it off deletes the file. SWITCHYARD_AUTOSTART_DIR replaces the
// folder (for tests).
class Autostart final
{
    Q_DECLARE_TR_FUNCTIONS(Autostart)

public:
    // command: how to start switchyard; empty: "switchyard" when that is this program on the
    // PATH, else this program's absolute path.
    explicit Autostart(QString command = {});

    static QString directory();
    QString filePath() const;
    bool isEnabled() const;
    bool setEnabled(bool on, QString *error);
    // The entry as written.
    QString desktopEntry() const;

private:
    QString m_command;
};

} // namespace switchyard
