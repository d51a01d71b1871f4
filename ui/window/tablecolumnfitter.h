#pragma once

#include <QHash>
#include <QList>
#include <QObject>
#include <QTimer>

class QTableView;

namespace switchyard {

// Sizes a table's columns to what they show (their header and the rows in view when they change), so that at
// the window's width every column is there without a horizontal scroll bar: when the room is
// short, the columns that may be cut (elided) give it up, each down to its header's width. It
// follows the rows as they come and change, and the table's width; once the user drags a
// column's edge, the widths are theirs.
class TableColumnFitter final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TableColumnFitter)

public:
    TableColumnFitter(QTableView *table, QList<int> elidable, QObject *parent = nullptr);

    // A column at least as wide as sample (an address, an SDK's name), rows or not, so it does
    // not jump when the first comes; an elidable one still gives it up when the room is short.
    void reserve(int column, const QString &sample);
    void fit();
    bool widthsByUser() const { return m_byUser; }

    // The widths for columns that want so much, when the ones marked elidable may shrink to
    // their floors, in available pixels (pure; more than available when even that is too much).
    static QList<int> widths(const QList<int> &want, const QList<int> &floor, const QList<bool> &elidable, int available);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void schedule();
    int headerWidth(int column) const;   // its title whole, with the sort arrow if sorted by it

    QTableView *m_table;
    QList<int> m_elidable;
    QHash<int, int> m_reserved;   // column → pixels
    QTimer m_pending;   // rows come in bursts (50 streams): one fit for each burst
    bool m_fitting = false;
    bool m_byUser = false;
};

} // namespace switchyard
