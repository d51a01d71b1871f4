#include "dialogs/welcomedialog.h"

#include "dialogs/addhostdialog.h"

#include <QDialogButtonBox>
#include <QIcon>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace switchyard {

using namespace Qt::StringLiterals;

WelcomeDialog::WelcomeDialog(const QString &configPath, QWidget *parent)
    : QDialog(parent)
    , m_path(configPath)
    , m_addHost(new QPushButton(tr("&Add a GPU Box…"), this))
    , m_demo(new QPushButton(tr("&Try the Demo Fleet"), this))
{
    setWindowTitle(tr("Switchyard: Welcome"));
    auto *title = new QLabel(u"<h2>%1</h2>"_s.arg(tr("Welcome to Switchyard").toHtmlEscaped()), this);
    auto *text = new QLabel(tr("Switchyard puts your llama.cpp GPU boxes behind one address for your coding "
                               "tools, and switches each box to the model a request asks for.\n\n"
                               "Start by adding a box: its address is enough. Or look around first with a "
                               "demo fleet of pretend boxes; nothing is saved."),
                            this);
    text->setWordWrap(true);
    m_addHost->setDefault(true);
    m_addHost->setToolTip(tr("The address of llama-server on the box; Switchyard checks it before saving"));
    m_demo->setToolTip(tr("Fake boxes on this machine, with pretend traffic"));
    for (QPushButton *b : {m_addHost, m_demo})
        b->setMinimumHeight(b->sizeHint().height() * 3 / 2);
    // Closing it quits: say so, and that the welcome comes back (issue 30).
    auto *quit = new QDialogButtonBox(QDialogButtonBox::Close, this);
    m_quit = quit->button(QDialogButtonBox::Close);
    m_quit->setText(tr("&Quit"));
    m_quit->setToolTip(tr("Quit Switchyard; it welcomes you again at its next start, until a box is added"));
    auto *afterQuit = new QLabel(tr("Quit closes Switchyard. It shows this welcome again at its next start, "
                                    "until a box is added."),
                                 this);
    afterQuit->setWordWrap(true);
    afterQuit->setEnabled(false);   // a quiet note, not a choice
    connect(quit, &QDialogButtonBox::rejected, this, &WelcomeDialog::reject);
    connect(m_addHost, &QPushButton::clicked, this, &WelcomeDialog::addHost);
    connect(m_demo, &QPushButton::clicked, this, [this] {
        m_choice = Choice::Demo;
        accept();
    });

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(title);
    layout->addWidget(text);
    layout->addSpacing(8);
    layout->addWidget(m_addHost);
    layout->addWidget(m_demo);
    layout->addStretch(1);
    layout->addWidget(afterQuit);
    layout->addWidget(quit);
    setMinimumWidth(460);
}

void WelcomeDialog::addHost()
{
    AddHostDialog dialog(m_path, this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    m_choice = Choice::HostAdded;
    accept();
}

} // namespace switchyard
