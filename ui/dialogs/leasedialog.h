#pragma once

#include <QDialog>

#include <chrono>

class QLineEdit;
class QPushButton;
class QSpinBox;

namespace switchyard {

// Taking a host's GPU from the relay, in one dialog: who uses it and for how long at most.
class LeaseDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LeaseDialog)

public:
    explicit LeaseDialog(const QString &host, QWidget *parent = nullptr);

    QLineEdit *ownerField() const { return m_owner; }
    QSpinBox *minutesField() const { return m_minutes; }
    QPushButton *takeButton() const { return m_take; }
    QString owner() const;
    std::chrono::minutes duration() const;

    void accept() override;

private:
    QLineEdit *m_owner;
    QSpinBox *m_minutes;
    QPushButton *m_take = nullptr;
};

} // namespace switchyard
