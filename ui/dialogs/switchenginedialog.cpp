#include "dialogs/switchenginedialog.h"

#include "shared/statuspalette.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

namespace switchyard {

using namespace Qt::StringLiterals;

SwitchEngineDialog::SwitchEngineDialog(const QString &host, const QList<Engine> &engines, const QString &current,
                                       QWidget *parent)
    : QDialog(parent)
    , m_list(new QListWidget(this))
{
    setWindowTitle(tr("Switch Engine on %1").arg(host));
    auto *what = new QLabel(current.isEmpty() ? tr("No engine runs on %1 now. Running requests finish first; new "
                                                   "ones wait for the switch.").arg(host)
                                              : tr("%1 runs %2 now. Running requests finish first; new ones wait "
                                                   "for the switch.").arg(host, current),
                            this);
    what->setWordWrap(true);
    m_list->setWordWrap(true);
    m_list->setIconSize(QSize(12, 12));
    int proposed = -1;
    for (const Engine &e : engines) {
        const QString models = e.models.isEmpty() ? tr("models not known yet (it has not run)")
                                                  : tr("%n model(s): %1", nullptr, int(e.models.size()))
                                                        .arg(e.models.join(u", "_s));
        const QString title = e.name == current ? tr("%1 (running now)").arg(e.name) : e.name;
        auto *item = new QListWidgetItem(StatusPalette::swatch(StatusPalette::forEngine(e.name)),
                                         title + u"\n"_s + models, m_list);
        item->setData(Qt::UserRole, e.name);
        item->setToolTip(models);
        if (e.name == current)
            item->setFlags(item->flags() & ~Qt::ItemIsEnabled);   // it runs already
        else if (proposed < 0)
            proposed = m_list->count() - 1;   // the first other engine: the likely choice
    }
    if (proposed >= 0)
        m_list->setCurrentRow(proposed);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    QPushButton *go = buttons->addButton(tr("&Switch"), QDialogButtonBox::AcceptRole);
    go->setEnabled(proposed >= 0);
    connect(m_list, &QListWidget::currentRowChanged, this, [this, go] { go->setEnabled(!engine().isEmpty()); });
    connect(m_list, &QListWidget::itemDoubleClicked, this, [this] {
        if (!engine().isEmpty())
            accept();
    });
    connect(buttons, &QDialogButtonBox::accepted, this, &SwitchEngineDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &SwitchEngineDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(what);
    layout->addWidget(m_list, 1);
    layout->addWidget(buttons);
    resize(460, 320);
}

QString SwitchEngineDialog::engine() const
{
    const QListWidgetItem *item = m_list->currentItem();
    if (!item || !(item->flags() & Qt::ItemIsEnabled))
        return {};
    return item->data(Qt::UserRole).toString();
}

} // namespace switchyard
