#pragma once

#include <QDialog>

class QCheckBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QRadioButton;
class QSpinBox;

namespace switchyard {

class AppSettings;
class Autostart;

// The desktop's settings: listen address, config file, data folder, the early-200 timings,
// and start at login. Nothing is saved until everything entered is valid: the listen address
// parses and the config file loads without errors (each problem is listed, as check-config
// says it). Saving applies at once through a config reload; the data folder at next start.
class SettingsDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SettingsDialog)

public:
    // overrides: what the command line sets, which wins over these settings ("--config", ...).
    SettingsDialog(AppSettings *settings, Autostart *autostart, const QStringList &overrides,
                   QWidget *parent = nullptr);

    // What the running relay uses: its listen address, and whether it runs the demo fleet.
    void setRunning(const QString &listenInUse, bool demo);

    // The problems with what is entered now; empty when it can be saved.
    QStringList validate() const;
    // Validates, saves and returns true; or shows the problems and returns false.
    bool save();

    QLineEdit *listenField() const { return m_listen; }
    QLineEdit *configField() const { return m_config; }
    QLineEdit *dataDirField() const { return m_dataDir; }
    QSpinBox *early200Field() const { return m_early200; }
    QSpinBox *commentEveryField() const { return m_commentEvery; }
    QCheckBox *autostartField() const { return m_autostart; }
    QPushButton *editHostsButton() const { return m_editHosts; }
    // "Run the relay here" or "Watch the relay at" a URL, with its admin token.
    QRadioButton *runHereField() const { return m_runHere; }
    QRadioButton *watchField() const { return m_watch; }
    QLineEdit *watchUrlField() const { return m_watchUrl; }
    QLineEdit *watchTokenField() const { return m_watchToken; }

    void accept() override;

Q_SIGNALS:
    // Saved: the relay should reload its config.
    void applied();
    // "Hosts: Edit Hosts…": the hosts editor on the config file.
    void hostsEditorRequested();

private:
    void showProblems(const QStringList &problems);

    AppSettings *m_settings;
    Autostart *m_autostartFile;
    QLineEdit *m_listen;
    QLineEdit *m_config;
    QLineEdit *m_dataDir;
    QSpinBox *m_early200;
    QSpinBox *m_commentEvery;
    QCheckBox *m_autostart;
    QPushButton *m_editHosts;
    QRadioButton *m_runHere;
    QRadioButton *m_watch;
    QLineEdit *m_watchUrl;
    QLineEdit *m_watchToken;
    QLabel *m_problems;
};

} // namespace switchyard
