#include "dialogs/leasedialog.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace switchyard {

LeaseDialog::LeaseDialog(const QString &host, QWidget *parent)
    : QDialog(parent)
    , m_owner(new QLineEdit(tr("desktop"), this))
    , m_minutes(new QSpinBox(this))
{
    setWindowTitle(tr("Take Lease on %1").arg(host));
    auto *what = new QLabel(tr("Running requests on %1 finish, then its engine stops and the GPU is yours; "
                               "model requests for it are told who has it until you release it.")
                                .arg(host),
                            this);
    what->setWordWrap(true);
    m_owner->setToolTip(tr("Who uses the GPU: clients read it in their 423 answer"));
    m_owner->selectAll();
    m_minutes->setRange(1, 24 * 60);
    m_minutes->setValue(60);
    m_minutes->setSuffix(tr(" min"));
    m_minutes->setToolTip(tr("The lease ends by itself after this, if you do not release it first"));

    auto *form = new QFormLayout;
    form->addRow(tr("&Used by:"), m_owner);
    form->addRow(tr("For at &most:"), m_minutes);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_take = buttons->addButton(tr("&Take Lease"), QDialogButtonBox::AcceptRole);
    connect(buttons, &QDialogButtonBox::accepted, this, &LeaseDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &LeaseDialog::reject);
    connect(m_owner, &QLineEdit::textChanged, this, [this] { m_take->setEnabled(!owner().isEmpty()); });

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(what);
    layout->addLayout(form);
    layout->addWidget(buttons);
    setMinimumWidth(420);
}

QString LeaseDialog::owner() const
{
    return m_owner->text().trimmed();
}

std::chrono::minutes LeaseDialog::duration() const
{
    return std::chrono::minutes(m_minutes->value());
}

void LeaseDialog::accept()
{
    if (owner().isEmpty()) {
        m_owner->setFocus();
        return;
    }
    QDialog::accept();
}

} // namespace switchyard
