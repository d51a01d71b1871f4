#include "models/requestlogfilterproxy.h"

#include "shared/statuspalette.h"
#include "shared/uiformat.h"
#include "store/requestlogmodel.h"

namespace switchyard {

RequestLogFilterProxy::RequestLogFilterProxy(QObject *parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(RequestLogModel::SortRole);
    setDynamicSortFilter(true);
}

void RequestLogFilterProxy::setHost(const QString &host)
{
    if (host == m_host)
        return;
    m_host = host;
    invalidateFilter();
}

void RequestLogFilterProxy::setModel(const QString &alias)
{
    if (alias == m_model)
        return;
    m_model = alias;
    invalidateFilter();
}

void RequestLogFilterProxy::setStatusFilter(StatusFilter filter)
{
    if (filter == m_status)
        return;
    m_status = filter;
    invalidateFilter();
}

void RequestLogFilterProxy::setShowOwnRequests(bool show)
{
    if (show == m_showOwn)
        return;
    m_showOwn = show;
    invalidateFilter();
}

void RequestLogFilterProxy::setText(const QString &text)
{
    if (text == m_text)
        return;
    m_text = text;
    invalidateFilter();
}

bool RequestLogFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    const QAbstractItemModel *source = sourceModel();
    auto cell = [&](int column) { return source->index(sourceRow, column, sourceParent).data().toString(); };
    const auto *log = qobject_cast<const RequestLogModel *>(source);
    if (!m_showOwn && log && RequestLogModel::isOwnRequest(log->recordAt(sourceRow)))
        return false;
    if (!m_host.isEmpty() && cell(RequestLogModel::HostColumn) != m_host)
        return false;
    if (!m_model.isEmpty() && cell(RequestLogModel::AliasColumn) != m_model)
        return false;
    if (m_status != StatusFilter::All) {
        const auto severity = RequestLogModel::Severity(
            source->index(sourceRow, 0, sourceParent).data(RequestLogModel::SeverityRole).toInt());
        switch (m_status) {
        case StatusFilter::Success:
            if (severity != RequestLogModel::Severity::Normal)
                return false;
            break;
        case StatusFilter::ClientErrors:
            if (severity != RequestLogModel::Severity::ClientError)
                return false;
            break;
        case StatusFilter::Errors:
            if (severity != RequestLogModel::Severity::Error)
                return false;
            break;
        case StatusFilter::AnyFailure:
            if (severity != RequestLogModel::Severity::ClientError && severity != RequestLogModel::Severity::Error
                && severity != RequestLogModel::Severity::Aborted)
                return false;
            break;
        case StatusFilter::All:
            break;
        }
    }
    if (m_text.isEmpty())
        return true;
    if (log) {
        const RequestRecord r = log->recordAt(sourceRow);
        for (const QString *field : {&r.path, &r.model, &r.host, &r.clientAddress, &r.userAgent, &r.relayError,
                                     &r.method, &r.engine}) {
            if (field->contains(m_text, Qt::CaseInsensitive))
                return true;
        }
        return QString::number(r.status) == m_text;
    }
    for (int column = 0; column < source->columnCount(sourceParent); ++column) {
        if (cell(column).contains(m_text, Qt::CaseInsensitive))
            return true;
    }
    return false;
}

QColor RequestLogFilterProxy::severityColor(RequestLogModel::Severity severity)
{
    switch (severity) {
    case RequestLogModel::Severity::Error: return StatusPalette::bad();
    case RequestLogModel::Severity::ClientError: return StatusPalette::busy();
    case RequestLogModel::Severity::InProgress: return StatusPalette::switching();
    case RequestLogModel::Severity::Aborted: return StatusPalette::idle();
    case RequestLogModel::Severity::Normal: break;
    }
    return StatusPalette::good();
}

QVariant RequestLogFilterProxy::data(const QModelIndex &index, int role) const
{
    if (index.column() == RequestLogModel::TimeColumn && role == Qt::DisplayRole) {
        // The time of day is what people scan for; the date only when it is not today.
        const QDateTime at = QDateTime::fromMSecsSinceEpoch(index.data(RequestLogModel::SortRole).toLongLong());
        return UiFormat::timeOfDay(at, QDateTime::currentDateTime());
    }
    if (index.column() == RequestLogModel::StatusColumn && role == Qt::TextAlignmentRole)
        return int(Qt::AlignLeft | Qt::AlignVCenter);
    if (index.column() == RequestLogModel::StatusColumn
        && (role == Qt::DecorationRole || role == Qt::ForegroundRole)) {
        const auto severity = RequestLogModel::Severity(index.data(RequestLogModel::SeverityRole).toInt());
        const QColor color = severityColor(severity);
        if (role == Qt::DecorationRole)
            return StatusPalette::dot(color);
        return severity == RequestLogModel::Severity::Normal ? QVariant() : QVariant(color);
    }
    return QSortFilterProxyModel::data(index, role);
}

} // namespace switchyard
