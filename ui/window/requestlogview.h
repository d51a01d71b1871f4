#pragma once

#include <QWidget>

class QAction;
class QCheckBox;
class QComboBox;

class QLabel;
class QLineEdit;
class QTableView;

namespace switchyard {

class HostFilterCombo;

class HostTableModel;
class RequestDetailsPane;
class RequestLogFilterProxy;
class RequestLogModel;

// The live request log: newest first, filtered by host, model, status and text, with the
// selected request's details below and "copy as journal line".
class RequestLogView final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RequestLogView)

public:
    RequestLogView(RequestLogModel *model, HostTableModel *hosts, QWidget *parent = nullptr);

    RequestLogFilterProxy *proxy() const { return m_proxy; }
    QTableView *table() const { return m_table; }
    RequestDetailsPane *details() const { return m_details; }
    QAction *copyJournalLineAction() const { return m_copy; }
    HostFilterCombo *hostFilter() const { return m_host; }
    QComboBox *modelFilter() const { return m_model; }
    QComboBox *statusFilter() const { return m_status; }
    QLineEdit *searchField() const { return m_search; }
    QCheckBox *ownRequestsToggle() const { return m_own; }

    // Journal lines of the selected requests, oldest first, one per line.
    QString selectedJournalLines() const;
    // Offers these aliases in the model filter.
    void setAliases(const QStringList &aliases);

Q_SIGNALS:
    void message(const QString &text);

private:
    void updateHostFilter();
    void showCurrent();
    int shownSourceRow() const;   // the row the details pane shows, -1 for none
    void updateCount();

    RequestLogModel *m_source;
    HostTableModel *m_hosts;
    RequestLogFilterProxy *m_proxy;
    QTableView *m_table;
    RequestDetailsPane *m_details;
    QLineEdit *m_search;
    HostFilterCombo *m_host;
    QComboBox *m_model;
    QComboBox *m_status;
    QCheckBox *m_own;
    QLabel *m_count;
    QAction *m_copy;
};

} // namespace switchyard
