#pragma once

#include "store/requestlogmodel.h"

#include <QColor>
#include <QSortFilterProxyModel>

namespace switchyard {

// The request log's filters (host, model, status class, free text) over a RequestLogModel,
// newest first by default, with the status column coloured by severity; the window's own
// calls hidden by default.
class RequestLogFilterProxy final : public QSortFilterProxyModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RequestLogFilterProxy)

public:
    enum class StatusFilter { All, Success, ClientErrors, Errors, AnyFailure };

    explicit RequestLogFilterProxy(QObject *parent = nullptr);

    void setHost(const QString &host);     // empty: any
    void setModel(const QString &alias);   // empty: any; else the alias exactly
    void setStatusFilter(StatusFilter filter);
    // Any of path, alias, host, status, client, user agent or the relay's error contains it.
    void setText(const QString &text);
    // The window's own calls (RequestLogModel::isOwnRequest): hidden unless asked for.
    void setShowOwnRequests(bool show);
    bool showsOwnRequests() const { return m_showOwn; }

    QString host() const { return m_host; }
    QString model() const { return m_model; }
    StatusFilter statusFilter() const { return m_status; }
    QString text() const { return m_text; }

    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    // The status dot's colour: red errors, amber client errors, in progress, grey aborted.
    static QColor severityColor(RequestLogModel::Severity severity);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    QString m_host;
    QString m_model;
    StatusFilter m_status = StatusFilter::All;
    QString m_text;
    bool m_showOwn = false;
};

} // namespace switchyard
