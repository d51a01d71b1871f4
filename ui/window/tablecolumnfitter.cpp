#include "window/tablecolumnfitter.h"

#include <QEvent>
#include <QHeaderView>
#include <QStyle>
#include <QStyleOptionHeader>
#include <QTableView>

#include <algorithm>
#include <limits>

namespace switchyard {

using namespace std::chrono_literals;

TableColumnFitter::TableColumnFitter(QTableView *table, QList<int> elidable, QObject *parent)
    : QObject(parent)
    , m_table(table)
    , m_elidable(std::move(elidable))
{
    m_pending.setSingleShot(true);
    m_pending.setInterval(100ms);
    connect(&m_pending, &QTimer::timeout, this, &TableColumnFitter::fit);
    QHeaderView *header = table->horizontalHeader();
    header->setSectionResizeMode(QHeaderView::Interactive);
    connect(header, &QHeaderView::sortIndicatorChanged, this, &TableColumnFitter::schedule);
    connect(header, &QHeaderView::sectionResized, this, [this] {
        if (!m_fitting)
            m_byUser = true;
    });
    QAbstractItemModel *model = table->model();
    connect(model, &QAbstractItemModel::rowsInserted, this, &TableColumnFitter::schedule);
    connect(model, &QAbstractItemModel::rowsRemoved, this, &TableColumnFitter::schedule);
    connect(model, &QAbstractItemModel::modelReset, this, &TableColumnFitter::schedule);
    connect(model, &QAbstractItemModel::layoutChanged, this, &TableColumnFitter::schedule);
    connect(model, &QAbstractItemModel::dataChanged, this, &TableColumnFitter::schedule);
    connect(model, &QAbstractItemModel::headerDataChanged, this, &TableColumnFitter::schedule);
    // The viewport narrows when its scroll bar comes, and follows the window.
    table->viewport()->installEventFilter(this);
    fit();
}

bool TableColumnFitter::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_table->viewport() && event->type() == QEvent::Resize)
        fit();
    return QObject::eventFilter(watched, event);
}

void TableColumnFitter::schedule()
{
    if (!m_byUser && !m_pending.isActive())
        m_pending.start();
}

void TableColumnFitter::reserve(int column, const QString &sample)
{
    // The text and the margins a cell keeps around it (as sizeHintForColumn() counts them).
    const int margin = 2 * (m_table->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, m_table) + 1);
    m_reserved[column] = std::max(m_reserved.value(column), m_table->fontMetrics().horizontalAdvance(sample) + margin + 8);
}

int TableColumnFitter::headerWidth(int column) const
{
    // QHeaderView::sectionSizeHint() keeps room for a sort arrow on every column (~24 px each, a
    // column's worth over the request log's eleven); only the sorted one shows it.
    const QHeaderView *header = m_table->horizontalHeader();
    QStyleOptionHeader option;
    option.initFrom(header);
    option.orientation = Qt::Horizontal;
    option.section = column;
    option.text = m_table->model()->headerData(column, Qt::Horizontal, Qt::DisplayRole).toString();
    option.textAlignment = header->defaultAlignment();
    option.fontMetrics = header->fontMetrics();
    option.sortIndicator = header->isSortIndicatorShown() && header->sortIndicatorSection() == column
                               ? QStyleOptionHeader::SortDown : QStyleOptionHeader::None;
    return header->style()->sizeFromContents(QStyle::CT_HeaderSection, &option, QSize(), header).width();
}

void TableColumnFitter::fit()
{
    m_pending.stop();
    if (m_byUser || !m_table->model())
        return;
    const QHeaderView *header = m_table->horizontalHeader();
    const int columns = m_table->model()->columnCount();
    QList<int> want(columns, 0);
    QList<int> floor(columns, 0);
    QList<bool> elidable(columns, false);
    for (int c = 0; c < columns; ++c) {
        if (header->isSectionHidden(c))
            continue;
        // The header whole, and the widest of the rows in view (public in QAbstractItemView,
        // protected in QTableView).
        floor[c] = headerWidth(c);
        const int rows = static_cast<const QAbstractItemView *>(m_table)->sizeHintForColumn(c);
        want[c] = std::max({floor[c], rows, m_reserved.value(c)});
        elidable[c] = m_elidable.contains(c);
    }
    // Before the table is laid out its viewport's width means nothing: nothing is cut then.
    const int room = m_table->isVisible() ? m_table->viewport()->width() : std::numeric_limits<int>::max() / 2;
    const QList<int> fitted = widths(want, floor, elidable, room);
    m_fitting = true;
    for (int c = 0; c < columns; ++c) {
        if (!header->isSectionHidden(c) && header->sectionSize(c) != fitted[c])
            m_table->setColumnWidth(c, fitted[c]);
    }
    m_fitting = false;
}

QList<int> TableColumnFitter::widths(const QList<int> &want, const QList<int> &floor, const QList<bool> &elidable, int available)
{
    QList<int> out = want;
    int total = 0;
    int spare = 0;   // what the elidable columns can give up
    for (int c = 0; c < want.size(); ++c) {
        total += want[c];
        if (elidable.value(c))
            spare += std::max(0, want[c] - floor.value(c));
    }
    const int excess = total - available;
    if (excess <= 0 || spare <= 0)
        return out;
    // Each gives up its share of what they all can give, the wide ones the most.
    const int cut = std::min(excess, spare);
    int given = 0;
    int last = -1;
    for (int c = 0; c < want.size(); ++c) {
        if (!elidable.value(c) || want[c] <= floor.value(c))
            continue;
        const int share = int(qint64(cut) * (want[c] - floor.value(c)) / spare);
        out[c] -= share;
        given += share;
        last = c;
    }
    // The rounding's last pixels, from the last that can give them.
    for (int c = last; c >= 0 && given < cut; --c) {
        if (!elidable.value(c))
            continue;
        const int more = std::min(cut - given, out[c] - floor.value(c));
        out[c] -= more;
        given += more;
    }
    return out;
}

} // namespace switchyard
