#pragma once

#include <QSortFilterProxyModel>

namespace switchyard {

// The Models table's filters: free text (alias, host, engine), one host, loaded only.
// Sorts by the source's SortRole, so numbers and times sort as numbers and times.
class ModelFilterProxy final : public QSortFilterProxyModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ModelFilterProxy)

public:
    explicit ModelFilterProxy(QObject *parent = nullptr);

    void setText(const QString &text);
    void setHost(const QString &host);   // empty: every host
    void setLoadedOnly(bool on);
    QString text() const { return m_text; }
    QString host() const { return m_host; }
    bool loadedOnly() const { return m_loadedOnly; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    QString m_text;
    QString m_host;
    bool m_loadedOnly = false;
};

} // namespace switchyard
