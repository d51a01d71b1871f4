#pragma once

#include "config/hostseditormodel.h"

#include <QDialog>

#include <functional>
#include <utility>

class QDialogButtonBox;
class QLabel;
class QPushButton;
class QTreeWidget;
class QTreeWidgetItem;

namespace switchyard {

class HostsEditorForm;

// Settings → Hosts (and a host card's "Edit Host…"): the config file's hosts and their engines,
// added, edited and removed, checked as check-config checks them with each error shown at its
// field, and saved atomically with the previous file kept as FILE.bak (ConfigWriter). The relay
// applies a save by its live reload. A file written by hand (comments, its own layout, fields this
// editor does not show) is not rewritten before the user has seen what would change and agreed.
class HostsEditorDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HostsEditorDialog)

public:
    // configPath: the relay's config file (created when missing).
    explicit HostsEditorDialog(const QString &configPath, QWidget *parent = nullptr);

    // Selects a host (and an engine of it) in the list.
    void select(const QString &host, const QString &engine = {});

    HostsEditorModel *model() { return &m_model; }
    HostsEditorForm *form() const { return m_form; }
    QTreeWidget *tree() const { return m_tree; }
    QPushButton *addHostButton() const { return m_addHost; }
    QPushButton *addEngineButton() const { return m_addEngine; }
    QPushButton *removeButton() const { return m_remove; }
    QPushButton *saveButton() const { return m_save; }
    QLabel *problems() const { return m_problems; }
    QString configPath() const { return m_path; }

    // Asks before rewriting a hand-edited file (a question box; tests answer it).
    void setConfirm(std::function<bool(const QString &question)> confirm) { m_confirm = std::move(confirm); }

    // Checks, asks if need be, writes. True when the file was written.
    bool save();
    void accept() override;

Q_SIGNALS:
    // The file was written: the relay should reload it.
    void saved(const QString &path);

private:
    bool loadFile();
    void rebuildTree(const QString &host, const QString &engine);
    void currentChanged();
    void revalidate();
    // Save with errors: each named (path and the readers' message), the first one's item shown.
    void showBlockers();
    void addHost();
    void addEngine();
    void removeCurrent();
    QString question(const ConfigWriter::Plan &plan) const;

    QString m_path;
    HostsEditorModel m_model;
    ConfigResult m_result;
    QTreeWidget *m_tree;
    HostsEditorForm *m_form;
    QPushButton *m_addHost;
    QPushButton *m_addEngine;
    QPushButton *m_remove;
    QPushButton *m_save;
    QDialogButtonBox *m_buttons;
    QLabel *m_problems;
    bool m_loaded = false;
    // A host and engine added by Add Engine with no URL to suggest: its empty URL is not shown
    // as an error until something is typed there or Save is pressed.
    std::pair<QString, QString> m_quietUrl;
    std::function<bool(const QString &)> m_confirm;
};

} // namespace switchyard
