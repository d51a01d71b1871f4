#pragma once

#include <QDialog>

class QPushButton;

namespace switchyard {

// The first run, with no config file: add a GPU box, or try the demo fleet. Never the
// command line's error for a desktop user.
class WelcomeDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(WelcomeDialog)

public:
    enum class Choice { None, HostAdded, Demo };

    // configPath: where "Add a GPU box" writes the config.
    explicit WelcomeDialog(const QString &configPath, QWidget *parent = nullptr);

    Choice choice() const { return m_choice; }
    QPushButton *addHostButton() const { return m_addHost; }
    QPushButton *demoButton() const { return m_demo; }
    QPushButton *quitButton() const { return m_quit; }
    QString configPath() const { return m_path; }


private:
    void addHost();

    QString m_path;
    QPushButton *m_addHost;
    QPushButton *m_demo;
    QPushButton *m_quit = nullptr;
    Choice m_choice = Choice::None;
};

} // namespace switchyard
