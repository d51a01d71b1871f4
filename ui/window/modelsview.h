#pragma once

#include <QWidget>

class QAction;
class QCheckBox;
class QComboBox;

class QLineEdit;
class QTableView;

namespace switchyard {

class HostFilterCombo;

class HostTableModel;
class ModelFilterProxy;
class ModelTableModel;
class RelayClient;

// Every alias the fleet serves, sortable and filterable, with load and unload.
class ModelsView final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ModelsView)

public:
    ModelsView(ModelTableModel *model, HostTableModel *hosts, RelayClient *client, QWidget *parent = nullptr);

    ModelFilterProxy *proxy() const { return m_proxy; }
    QTableView *table() const { return m_table; }
    QLineEdit *searchField() const { return m_search; }
    QAction *loadAction() const { return m_load; }
    QAction *unloadAction() const { return m_unload; }
    QString selectedAlias() const;
    // Selects the model's row; false when the filters hide it or there is none.
    bool selectAlias(const QString &alias);

Q_SIGNALS:
    void message(const QString &text);

private:
    void updateActions();
    void updateHostFilter();

    ModelTableModel *m_model;
    HostTableModel *m_hosts;
    RelayClient *m_client;
    ModelFilterProxy *m_proxy;
    QTableView *m_table;
    QLineEdit *m_search;
    HostFilterCombo *m_host;
    QCheckBox *m_loadedOnly;
    QAction *m_load;
    QAction *m_unload;
    QString m_keepSelected;   // the selected model across a reset of the table
};

} // namespace switchyard
