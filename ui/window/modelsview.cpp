#include "window/modelsview.h"

#include "window/hostfiltercombo.h"

#include "models/hosttablemodel.h"
#include "models/modelfilterproxy.h"
#include "models/modeltablemodel.h"
#include "window/relayclient.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLineEdit>
#include <QMenu>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

namespace switchyard {

using namespace Qt::StringLiterals;

ModelsView::ModelsView(ModelTableModel *model, HostTableModel *hosts, RelayClient *client, QWidget *parent)
    : QWidget(parent)
    , m_model(model)
    , m_hosts(hosts)
    , m_client(client)
    , m_proxy(new ModelFilterProxy(this))
    , m_table(new QTableView(this))
    , m_search(new QLineEdit(this))
    , m_host(new HostFilterCombo(this))
    , m_loadedOnly(new QCheckBox(tr("Loaded only"), this))
{
    m_proxy->setSourceModel(model);

    m_search->setPlaceholderText(tr("Filter models…"));
    m_search->setClearButtonEnabled(true);
    m_search->setAccessibleName(tr("Filter models"));
    connect(m_search, &QLineEdit::textChanged, m_proxy, &ModelFilterProxy::setText);
    connect(m_host, &QComboBox::currentIndexChanged, this,
            [this] { m_proxy->setHost(m_host->host()); });
    connect(m_loadedOnly, &QCheckBox::toggled, m_proxy, &ModelFilterProxy::setLoadedOnly);
    connect(hosts, &QAbstractItemModel::modelReset, this, &ModelsView::updateHostFilter);
    connect(hosts, &QAbstractItemModel::rowsInserted, this, &ModelsView::updateHostFilter);
    updateHostFilter();

    m_load = new QAction(tr("&Load"), this);
    m_load->setToolTip(tr("Load the selected model on its host (POST /models/load)"));
    m_unload = new QAction(tr("&Unload"), this);
    m_unload->setToolTip(tr("Unload the selected model and free its memory (POST /models/unload)"));
    connect(m_load, &QAction::triggered, this, [this] {
        const QString alias = selectedAlias();
        if (alias.isEmpty())
            return;
        m_client->load(alias);
        emit message(tr("Loading %1…").arg(alias));
    });
    connect(m_unload, &QAction::triggered, this, [this] {
        const QString alias = selectedAlias();
        if (alias.isEmpty())
            return;
        m_client->unload(alias);
        emit message(tr("Unloading %1…").arg(alias));
    });
    connect(client, &RelayClient::finished, this, [this](const QString &alias, bool load, bool ok, const QString &why) {
        if (ok)
            emit message(load ? tr("%1: load accepted").arg(alias) : tr("%1: unloaded").arg(alias));
        else
            emit message(load ? tr("%1: load refused: %2").arg(alias, why) : tr("%1: unload refused: %2").arg(alias, why));
    });

    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(ModelTableModel::HostColumn, Qt::AscendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setAlternatingRowColors(true);
    m_table->setShowGrid(false);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 12);
    m_table->horizontalHeader()->setHighlightSections(false);
    m_table->horizontalHeader()->setStretchLastSection(false);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_table->horizontalHeader()->setSectionResizeMode(ModelTableModel::AliasColumn, QHeaderView::Stretch);
    const QFontMetrics fm = m_table->fontMetrics();
    auto width = [&](const QString &sample) { return fm.horizontalAdvance(sample) + 36; };
    m_table->setColumnWidth(ModelTableModel::HostColumn, width(u"host-0000"_s));
    m_table->setColumnWidth(ModelTableModel::EngineColumn, width(u"mainline-0"_s));
    m_table->setColumnWidth(ModelTableModel::StatusColumn, width(u"● unloaded"_s) + 8);
    m_table->setColumnWidth(ModelTableModel::ContextColumn, width(tr("Context")));
    m_table->setColumnWidth(ModelTableModel::LastUsedColumn, width(u"59 min ago"_s));
    m_table->setColumnWidth(ModelTableModel::RequestsColumn, width(u"00000"_s));
    m_table->setColumnWidth(ModelTableModel::TokensPerSecondColumn, width(tr("Tokens/s")));
    m_table->setContextMenuPolicy(Qt::CustomContextMenu);
    m_table->setAccessibleName(tr("Models"));
    connect(m_table, &QWidget::customContextMenuRequested, this, [this](const QPoint &pos) {
        QMenu menu(this);
        menu.addAction(m_load);
        menu.addAction(m_unload);
        menu.exec(m_table->viewport()->mapToGlobal(pos));
    });
    connect(m_table, &QAbstractItemView::doubleClicked, this, [this] {
        if (m_load->isEnabled())
            m_load->trigger();
    });
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, &ModelsView::updateActions);
    connect(m_proxy, &QAbstractItemModel::dataChanged, this, &ModelsView::updateActions);
    connect(m_proxy, &QAbstractItemModel::modelReset, this, &ModelsView::updateActions);
    // A new model list (a load, an engine switch) resets the table: the selection follows the
    // model it was on, not the row number.
    connect(m_proxy, &QAbstractItemModel::modelAboutToBeReset, this, [this] { m_keepSelected = selectedAlias(); });
    connect(m_proxy, &QAbstractItemModel::modelReset, this, [this] {
        if (!m_keepSelected.isEmpty())
            selectAlias(m_keepSelected);
        m_keepSelected.clear();
    });

    auto *loadButton = new QToolButton(this);
    loadButton->setDefaultAction(m_load);
    loadButton->setToolButtonStyle(Qt::ToolButtonTextOnly);
    auto *unloadButton = new QToolButton(this);
    unloadButton->setDefaultAction(m_unload);
    unloadButton->setToolButtonStyle(Qt::ToolButtonTextOnly);

    auto *bar = new QHBoxLayout;
    bar->setContentsMargins(0, 0, 0, 0);
    bar->addWidget(m_search, 2);
    bar->addWidget(m_host);
    bar->addWidget(m_loadedOnly);
    bar->addStretch(1);
    bar->addWidget(loadButton);
    bar->addWidget(unloadButton);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addLayout(bar);
    layout->addWidget(m_table, 1);
    updateActions();
}

void ModelsView::updateHostFilter()
{
    m_host->setHosts(m_hosts->hostNames());
    m_proxy->setHost(m_host->host());
}

QString ModelsView::selectedAlias() const
{
    const QModelIndexList rows = m_table->selectionModel()->selectedRows();
    return rows.isEmpty() ? QString() : rows.first().data(ModelTableModel::AliasRole).toString();
}

bool ModelsView::selectAlias(const QString &alias)
{
    for (int row = 0; row < m_proxy->rowCount(); ++row) {
        const QModelIndex index = m_proxy->index(row, 0);
        if (index.data(ModelTableModel::AliasRole).toString() == alias) {
            m_table->selectionModel()->setCurrentIndex(
                index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
            return true;
        }
    }
    return false;
}

void ModelsView::updateActions()
{
    const QModelIndexList rows = m_table->selectionModel()->selectedRows();
    const QString status = rows.isEmpty() ? QString() : rows.first().data(ModelTableModel::StatusRole).toString();
    m_load->setEnabled(!rows.isEmpty() && status != "loaded"_L1 && status != "loading"_L1);
    m_unload->setEnabled(!rows.isEmpty() && (status == "loaded"_L1 || status == "loading"_L1 || status == "sleeping"_L1));
}

} // namespace switchyard
