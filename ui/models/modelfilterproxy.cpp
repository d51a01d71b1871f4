#include "models/modelfilterproxy.h"

#include "models/modeltablemodel.h"

namespace switchyard {

using namespace Qt::StringLiterals;

ModelFilterProxy::ModelFilterProxy(QObject *parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(ModelTableModel::SortRole);
    setSortCaseSensitivity(Qt::CaseInsensitive);
    setDynamicSortFilter(true);
}

void ModelFilterProxy::setText(const QString &text)
{
    if (text == m_text)
        return;
    m_text = text;
    invalidateFilter();
}

void ModelFilterProxy::setHost(const QString &host)
{
    if (host == m_host)
        return;
    m_host = host;
    invalidateFilter();
}

void ModelFilterProxy::setLoadedOnly(bool on)
{
    if (on == m_loadedOnly)
        return;
    m_loadedOnly = on;
    invalidateFilter();
}

bool ModelFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    const QAbstractItemModel *source = sourceModel();
    const QModelIndex first = source->index(sourceRow, 0, sourceParent);
    if (!m_host.isEmpty() && first.data(ModelTableModel::HostRole).toString() != m_host)
        return false;
    if (m_loadedOnly && first.data(ModelTableModel::StatusRole).toString() != "loaded"_L1)
        return false;
    if (m_text.isEmpty())
        return true;
    for (int column : {ModelTableModel::AliasColumn, ModelTableModel::HostColumn, ModelTableModel::EngineColumn}) {
        if (source->index(sourceRow, column, sourceParent).data().toString().contains(m_text, Qt::CaseInsensitive))
            return true;
    }
    return false;
}

} // namespace switchyard
