#include "dialogs/hostseditordialog.h"

#include "config/configwriter.h"
#include "dialogs/addhostdialog.h"
#include "dialogs/hostseditorform.h"
#include "dialogs/hostseditorurls.h"
#include "shared/uiformat.h"

#include <QDialogButtonBox>
#include <QFile>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace switchyard {

using namespace Qt::StringLiterals;

namespace {

constexpr int HostRole = Qt::UserRole;
constexpr int EngineRole = Qt::UserRole + 1;
constexpr int MaxChangesShown = 20;

bool isUnder(const QString &path, const QString &item)
{
    return path == item || path.startsWith(item + u'.') || path.startsWith(item + u'[');
}

QString itemPath(const QTreeWidgetItem *item)
{
    return HostsEditorModel::fieldPath(item->data(0, HostRole).toString(), item->data(0, EngineRole).toString());
}

} // namespace

HostsEditorDialog::HostsEditorDialog(const QString &configPath, QWidget *parent)
    : QDialog(parent)
    , m_path(configPath)
    , m_tree(new QTreeWidget(this))
    , m_form(new HostsEditorForm(this))
    , m_addHost(new QPushButton(tr("Add &Host"), this))
    , m_addEngine(new QPushButton(tr("Add &Engine"), this))
    , m_remove(new QPushButton(tr("&Remove"), this))
    , m_buttons(new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel, this))
    , m_problems(new QLabel(this))
{
    setWindowTitle(tr("Hosts — %1").arg(QFileInfo(configPath).fileName()));
    m_save = m_buttons->button(QDialogButtonBox::Save);
    m_tree->setHeaderHidden(true);
    m_tree->setColumnCount(1);
    m_tree->setMinimumWidth(180);
    m_tree->setAccessibleName(tr("Hosts and engines"));
    m_confirm = [this](const QString &text) {
        return QMessageBox::question(this, tr("Save Hosts"), text, QMessageBox::Save | QMessageBox::Cancel,
                                     QMessageBox::Cancel) == QMessageBox::Save;
    };

    auto *left = new QWidget(this);
    auto *leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(m_tree, 1);
    auto *treeButtons = new QHBoxLayout;
    treeButtons->addWidget(m_addHost);
    treeButtons->addWidget(m_addEngine);
    treeButtons->addWidget(m_remove);
    leftLayout->addLayout(treeButtons);
    auto *split = new QSplitter(this);
    split->addWidget(left);
    // Every field the readers know is more than a small window's height.
    auto *scroll = new QScrollArea(this);
    scroll->setWidget(m_form);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    split->addWidget(scroll);
    split->setStretchFactor(1, 1);
    split->setChildrenCollapsible(false);

    auto *where = new QLabel(tr("Saved to %1; the previous file is kept as %2.bak. The relay applies it at once, "
                                "without dropping a stream.").arg(UiFormat::path(configPath), QFileInfo(configPath).fileName()), this);
    where->setWordWrap(true);
    where->setForegroundRole(QPalette::PlaceholderText);
    where->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_problems->setWordWrap(true);
    m_problems->setTextFormat(Qt::PlainText);
    m_problems->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_problems->setStyleSheet(u"color: #cc3d3d"_s);
    m_problems->hide();

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(split, 1);
    layout->addWidget(m_problems);
    layout->addWidget(where);
    layout->addWidget(m_buttons);
    resize(780, 480);

    connect(m_buttons, &QDialogButtonBox::accepted, this, &HostsEditorDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &HostsEditorDialog::reject);
    connect(m_tree, &QTreeWidget::currentItemChanged, this, &HostsEditorDialog::currentChanged);
    connect(m_addHost, &QPushButton::clicked, this, &HostsEditorDialog::addHost);
    connect(m_addEngine, &QPushButton::clicked, this, &HostsEditorDialog::addEngine);
    connect(m_remove, &QPushButton::clicked, this, &HostsEditorDialog::removeCurrent);
    connect(m_form, &HostsEditorForm::edited, this, &HostsEditorDialog::revalidate);
    connect(m_form, &HostsEditorForm::renamed, this, [this](const QString &from, const QString &to) {
        // A new engine's quiet URL stays quiet under its new name, or its host's.
        if (m_form->engine().isEmpty() && m_quietUrl.first == from)
            m_quietUrl.first = to;
        else if (m_quietUrl == std::pair(m_form->host(), from))
            m_quietUrl.second = to;
        rebuildTree(m_form->host(), m_form->engine());
    });

    m_loaded = loadFile();
    rebuildTree({}, {});
    revalidate();
}

bool HostsEditorDialog::loadFile()
{
    QFile file(m_path);
    QByteArray existing;
    if (file.exists()) {
        if (!file.open(QIODevice::ReadOnly)) {
            m_problems->setText(tr("Cannot read %1: %2").arg(m_path, file.errorString()));
            m_problems->show();
            return false;
        }
        existing = file.readAll();
    }
    QString error;
    if (!m_model.load(existing, &error)) {
        // Nothing of it can be edited here without losing it: it is left alone.
        m_problems->setText(tr("%1 cannot be edited here: %2").arg(m_path, error));
        m_problems->show();
        return false;
    }
    return true;
}

void HostsEditorDialog::rebuildTree(const QString &host, const QString &engine)
{
    const QSignalBlocker block(m_tree);
    m_tree->clear();
    QTreeWidgetItem *current = nullptr;
    for (const QString &h : m_model.hosts()) {
        auto *hostItem = new QTreeWidgetItem(m_tree, {h});
        hostItem->setData(0, HostRole, h);
        if (h == host && engine.isEmpty())
            current = hostItem;
        for (const QString &e : m_model.engines(h)) {
            auto *engineItem = new QTreeWidgetItem(hostItem, {e});
            engineItem->setData(0, HostRole, h);
            engineItem->setData(0, EngineRole, e);
            if (h == host && e == engine)
                current = engineItem;
        }
    }
    m_tree->expandAll();
    if (!current && m_tree->topLevelItemCount() > 0 && host.isEmpty())
        current = m_tree->topLevelItem(0);
    m_tree->setCurrentItem(current);
    // Same item as before (a rename): the form keeps its focus and cursor.
    if (!current || current->data(0, HostRole) != m_form->host() || current->data(0, EngineRole) != m_form->engine())
        currentChanged();
    revalidate();
}

void HostsEditorDialog::select(const QString &host, const QString &engine)
{
    rebuildTree(host, engine);
}

void HostsEditorDialog::currentChanged()
{
    const QTreeWidgetItem *item = m_tree->currentItem();
    if (!item)
        m_form->showNothing();
    else if (item->data(0, EngineRole).toString().isEmpty())
        m_form->showHost(&m_model, item->data(0, HostRole).toString());
    else
        m_form->showEngine(&m_model, item->data(0, HostRole).toString(), item->data(0, EngineRole).toString());
    m_addEngine->setEnabled(m_loaded && item);
    m_remove->setEnabled(m_loaded && item);
    revalidate();
}

void HostsEditorDialog::revalidate()
{
    m_addHost->setEnabled(m_loaded);
    if (!m_loaded) {
        m_save->setEnabled(false);
        return;
    }
    m_result = m_model.check(m_path);
    // The readers take an address twice; the editor does not, as Add Host does not (issue 30).
    m_result.errors.append(HostsEditorUrls::sharedAddresses(m_model));
    // A new engine's empty URL is not wrong before the user has had a chance to type one.
    if (!m_quietUrl.first.isEmpty() && !m_model.text(m_quietUrl.first, m_quietUrl.second, u"url"_s).isEmpty())
        m_quietUrl = {};
    const QString quiet = m_quietUrl.first.isEmpty()
                              ? QString()
                              : HostsEditorModel::fieldPath(m_quietUrl.first, m_quietUrl.second, u"url"_s);
    QList<ConfigError> shown;
    for (const ConfigError &e : std::as_const(m_result.errors)) {
        if (quiet.isEmpty() || e.fieldPath != quiet)
            shown.append(e);
    }
    const QList<ConfigError> elsewhere = m_form->showErrors(shown);
    // Every host and engine with something wrong is marked in the list.
    for (QTreeWidgetItemIterator it(m_tree); *it; ++it) {
        QStringList messages;
        for (const ConfigError &e : std::as_const(shown)) {
            if (isUnder(e.fieldPath, itemPath(*it)))
                messages.append(e.fieldPath + u": "_s + e.message);
        }
        (*it)->setForeground(0, messages.isEmpty() ? palette().text() : QBrush(QColor(0xcc, 0x3d, 0x3d)));
        (*it)->setToolTip(0, messages.join(u'\n'));
    }
    QStringList lines;
    for (const ConfigError &e : elsewhere)
        lines.append(e.fieldPath.isEmpty() ? e.message : e.fieldPath + u": "_s + e.message);
    m_problems->setText(lines.join(u'\n'));
    m_problems->setVisible(!lines.isEmpty());
    // Clickable with errors too: Save then says which fields stop it (issue 30), never a dead button.
    m_save->setEnabled(m_model.isModified());
    m_save->setToolTip(m_result.ok() ? QString() : tr("Fix what is marked in red first"));
}

void HostsEditorDialog::addHost()
{
    // The first run's flow: the address checked before the host is listed (issue 30).
    auto *dialog = new AddHostDialog(m_path, this, AddHostDialog::Target::Editor);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setExistingHosts(m_model.engineUrls());
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        const ConfigWriter::NewHost host = dialog->checkedHost();
        if (!m_model.addHost(host))
            return;
        rebuildTree(host.name, {});
    });
    dialog->open();
}

void HostsEditorDialog::addEngine()
{
    const QTreeWidgetItem *item = m_tree->currentItem();
    if (!item)
        return;
    const QString host = item->data(0, HostRole).toString();
    // Where the host's box likely runs it: its address, the next free port; what the user
    // expects to type anyway, and an empty field is not an error at once (issue 30).
    const QString url = HostsEditorUrls::suggestEngineUrl(m_model, host);
    const QString engine = m_model.addEngine(host);
    if (url.isEmpty())
        m_quietUrl = {host, engine};
    else
        m_model.setText(host, engine, u"url"_s, url);
    rebuildTree(host, engine);
    auto *edit = qobject_cast<QLineEdit *>(m_form->field(u"url"_s));
    edit->setFocus();
    edit->selectAll();   // typed over at once when the guess is wrong
}

void HostsEditorDialog::removeCurrent()
{
    const QTreeWidgetItem *item = m_tree->currentItem();
    if (!item)
        return;
    const QString host = item->data(0, HostRole).toString();
    const QString engine = item->data(0, EngineRole).toString();
    if (engine.isEmpty())
        m_model.removeHost(host);
    else
        m_model.removeEngine(host, engine);
    m_form->showNothing();
    rebuildTree(engine.isEmpty() ? QString() : host, {});
}

QString HostsEditorDialog::question(const ConfigWriter::Plan &plan) const
{
    QStringList changes = m_model.changes();
    if (changes.size() > MaxChangesShown) {
        const qsizetype more = changes.size() - MaxChangesShown;
        changes = changes.mid(0, MaxChangesShown);
        changes.append(tr("and %n more change(s)", nullptr, int(more)));
    }
    QStringList keeps;
    if (plan.reformats)
        keeps.append(tr("lays the file out again: its spacing and line breaks change"));
    if (plan.comments > 0)
        keeps.append(tr("keeps its %n comment(s)", nullptr, plan.comments));
    const QStringList hidden = m_model.hiddenFields();
    if (!hidden.isEmpty())
        keeps.append(tr("keeps as they are the fields this editor does not show: %1").arg(hidden.join(u", "_s)));
    keeps.append(tr("keeps the file as it is now in %1.bak").arg(QFileInfo(m_path).fileName()));
    return tr("%1 was written by hand. Saving changes:").arg(m_path) + u"\n• "_s + changes.join(u"\n• "_s)
           + u"\n\n"_s + tr("and:") + u"\n• "_s + keeps.join(u"\n• "_s);
}

void HostsEditorDialog::showBlockers()
{
    // Where the first one is: its host or engine shown (the deepest item it is under).
    const QString first = m_result.errors.isEmpty() ? QString() : m_result.errors.first().fieldPath;
    QTreeWidgetItem *at = nullptr;
    for (QTreeWidgetItemIterator it(m_tree); *it; ++it) {
        if (!first.isEmpty() && isUnder(first, itemPath(*it)))
            at = *it;
    }
    if (at && at != m_tree->currentItem())
        m_tree->setCurrentItem(at);
    QStringList lines;
    for (const ConfigError &e : std::as_const(m_result.errors))
        lines.append(e.fieldPath.isEmpty() ? e.message : e.fieldPath + u": "_s + e.message);
    m_problems->setText(tr("Nothing saved. Fix first:") + u"\n"_s + lines.join(u'\n'));
    m_problems->show();
    m_form->focusField(first);
}

bool HostsEditorDialog::save()
{
    m_quietUrl = {};   // Save names everything that stops it
    revalidate();
    if (!m_loaded)
        return false;
    if (!m_result.ok()) {
        showBlockers();
        return false;
    }
    // Someone (an editor, another window) wrote the file since it was opened here.
    QFile file(m_path);
    const QByteArray now = file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
    if (now != m_model.original()) {
        m_problems->setText(tr("%1 changed on disk since it was opened here; nothing was saved. Close this window "
                               "and open it again to edit the new file.").arg(m_path));
        m_problems->show();
        return false;
    }
    const ConfigWriter::Plan plan = m_model.plan();
    const bool handEdited = plan.reformats || plan.comments > 0 || !m_model.hiddenFields().isEmpty();
    if (handEdited && !m_confirm(question(plan)))
        return false;
    QString error;
    if (!ConfigWriter::save(m_path, plan.text, &error)) {
        m_problems->setText(error);
        m_problems->show();
        return false;
    }
    const QString host = m_form->host();
    const QString engine = m_form->engine();
    m_model.load(plan.text, &error);   // what is on disk now is what further edits compare with
    rebuildTree(host, engine);
    emit saved(m_path);
    return true;
}

void HostsEditorDialog::accept()
{
    if (!m_model.isModified() || save())
        QDialog::accept();
}

} // namespace switchyard
