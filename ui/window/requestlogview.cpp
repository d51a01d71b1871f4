#include "window/requestlogview.h"

#include "window/hostfiltercombo.h"

#include "journal/journalformat.h"
#include "models/hosttablemodel.h"
#include "models/requestlogfilterproxy.h"
#include "store/requestlogmodel.h"
#include "window/requestdetailspane.h"
#include "window/tablecolumnfitter.h"

#include <QAction>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QSplitter>
#include <QStyle>
#include <QStyleOptionFrame>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace switchyard {

using namespace Qt::StringLiterals;

RequestLogView::RequestLogView(RequestLogModel *model, HostTableModel *hosts, QWidget *parent)
    : QWidget(parent)
    , m_source(model)
    , m_hosts(hosts)
    , m_proxy(new RequestLogFilterProxy(this))
    , m_table(new QTableView(this))
    , m_details(new RequestDetailsPane(this))
    , m_search(new QLineEdit(this))
    , m_host(new HostFilterCombo(this))
    , m_model(new QComboBox(this))
    , m_status(new QComboBox(this))
    , m_own(new QCheckBox(tr("Switchyard's own"), this))
    , m_count(new QLabel(this))
{
    m_proxy->setSourceModel(model);

    m_search->setPlaceholderText(tr("Search path, client, error…"));
    m_search->setClearButtonEnabled(true);
    m_search->setAccessibleName(tr("Search requests"));
    // The placeholder whole (the German one read "Pfad, Clie…" at 1000 px): at least its width,
    // with the field's frame and margins and the clear button (QLineEdit's 16 px icon, 6 px around
    // it and a margin).
    QStyleOptionFrame frame;
    frame.initFrom(m_search);
    const QSize text(m_search->fontMetrics().horizontalAdvance(m_search->placeholderText()) + 4, m_search->fontMetrics().height());
    m_search->setMinimumWidth(m_search->style()->sizeFromContents(QStyle::CT_LineEdit, &frame, text, m_search).width()
                              + 16 + 6 + 4);
    connect(m_search, &QLineEdit::textChanged, m_proxy, &RequestLogFilterProxy::setText);

    connect(m_host, &QComboBox::currentIndexChanged, this, [this] { m_proxy->setHost(m_host->host()); });
    connect(hosts, &QAbstractItemModel::modelReset, this, &RequestLogView::updateHostFilter);
    connect(hosts, &QAbstractItemModel::rowsInserted, this, &RequestLogView::updateHostFilter);
    updateHostFilter();

    m_model->setAccessibleName(tr("Model"));
    m_model->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_model->addItem(tr("All models"), QString());
    connect(m_model, &QComboBox::currentIndexChanged, this, [this] { m_proxy->setModel(m_model->currentData().toString()); });

    m_status->setAccessibleName(tr("Status"));
    m_status->addItem(tr("Any status"), int(RequestLogFilterProxy::StatusFilter::All));
    m_status->addItem(tr("Succeeded"), int(RequestLogFilterProxy::StatusFilter::Success));
    m_status->addItem(tr("Failed (any)"), int(RequestLogFilterProxy::StatusFilter::AnyFailure));
    m_status->addItem(tr("Client errors (4xx)"), int(RequestLogFilterProxy::StatusFilter::ClientErrors));
    m_status->addItem(tr("Errors (5xx, relay)"), int(RequestLogFilterProxy::StatusFilter::Errors));
    connect(m_status, &QComboBox::currentIndexChanged, this, [this] {
        m_proxy->setStatusFilter(RequestLogFilterProxy::StatusFilter(m_status->currentData().toInt()));
    });

    m_own->setToolTip(tr("Show the requests this window makes itself: its loads and the model list of an export"));
    connect(m_own, &QCheckBox::toggled, m_proxy, &RequestLogFilterProxy::setShowOwnRequests);

    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(RequestLogModel::TimeColumn, Qt::DescendingOrder);   // newest on top
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_table->setAlternatingRowColors(true);
    m_table->setShowGrid(false);
    m_table->setWordWrap(false);
    m_table->setTextElideMode(Qt::ElideMiddle);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 8);
    m_table->horizontalHeader()->setHighlightSections(false);
    // Every column as wide as what it shows (its header whole: "Erstes Byte"), none stretched
    // over the free space; when the room is short the long texts are cut in the middle: a path,
    // a model, a request's progress ("waiting: switch mainline→fork"), an SDK's name.
    m_table->horizontalHeader()->setStretchLastSection(false);
    auto *columns = new TableColumnFitter(m_table, {RequestLogModel::PathColumn, RequestLogModel::AliasColumn,
                                                    RequestLogModel::StatusColumn, RequestLogModel::AppColumn}, this);
    // Room kept for an address and the SDKs' names (the longest an app gets), rows or not.
    columns->reserve(RequestLogModel::ClientColumn, u"192.168.100.200"_s);
    columns->reserve(RequestLogModel::AppColumn, RequestLogModel::appName(ClientApp::OpenAiSdkPython));
    columns->reserve(RequestLogModel::AppColumn, RequestLogModel::appName(ClientApp::AnthropicSdkPython));
    columns->fit();
    m_table->setAccessibleName(tr("Requests"));

    m_copy = new QAction(tr("&Copy as Journal Line"), this);
    m_copy->setShortcut(QKeySequence::Copy);
    m_copy->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_copy->setToolTip(tr("Copy the selected requests as the journal writes them"));
    m_table->addAction(m_copy);
    connect(m_copy, &QAction::triggered, this, [this] {
        const QString lines = selectedJournalLines();
        if (lines.isEmpty())
            return;
        QGuiApplication::clipboard()->setText(lines);
        emit message(tr("Copied %n journal line(s)", nullptr, int(lines.count(u'\n') + 1)));
    });
    m_table->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_table, &QWidget::customContextMenuRequested, this, [this](const QPoint &pos) {
        QMenu menu(this);
        menu.addAction(m_copy);
        menu.exec(m_table->viewport()->mapToGlobal(pos));
    });
    // The pane shows the selected request and nothing else: a filter that hides it, or moves the
    // current index to a row nobody selected, clears the pane (#22's item 19).
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &RequestLogView::showCurrent);
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
        m_copy->setEnabled(m_table->selectionModel()->hasSelection());
        showCurrent();
    });
    connect(m_proxy, &QAbstractItemModel::layoutChanged, this, &RequestLogView::showCurrent);
    connect(m_proxy, &QAbstractItemModel::rowsRemoved, this, &RequestLogView::showCurrent);
    connect(m_proxy, &QAbstractItemModel::modelReset, this, &RequestLogView::showCurrent);
    // A request in flight that is shown follows its progress.
    connect(model, &QAbstractItemModel::dataChanged, this, [this](const QModelIndex &from, const QModelIndex &to) {
        const int shown = shownSourceRow();
        if (shown >= from.row() && shown <= to.row())
            showCurrent();
    });
    m_copy->setEnabled(false);
    connect(m_proxy, &QAbstractItemModel::rowsInserted, this, &RequestLogView::updateCount);
    connect(m_proxy, &QAbstractItemModel::rowsRemoved, this, &RequestLogView::updateCount);
    connect(m_proxy, &QAbstractItemModel::modelReset, this, &RequestLogView::updateCount);
    connect(m_proxy, &QAbstractItemModel::layoutChanged, this, &RequestLogView::updateCount);

    auto *copyButton = new QToolButton(this);
    copyButton->setDefaultAction(m_copy);
    copyButton->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_count->setForegroundRole(QPalette::PlaceholderText);

    auto *bar = new QHBoxLayout;
    bar->setContentsMargins(0, 0, 0, 0);
    bar->addWidget(m_search, 2);
    bar->addWidget(m_host);
    bar->addWidget(m_model);
    bar->addWidget(m_status);
    bar->addWidget(m_own);
    bar->addStretch(1);
    bar->addWidget(m_count);
    bar->addWidget(copyButton);

    m_details->setMinimumWidth(300);
    auto *split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_table);
    split->addWidget(m_details);   // it scrolls its fields itself, the journal line kept in view
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 0);
    split->setSizes({900, 340});
    split->setChildrenCollapsible(false);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addLayout(bar);
    layout->addWidget(split, 1);
    updateCount();
}

void RequestLogView::updateHostFilter()
{
    m_host->setHosts(m_hosts->hostNames());
    m_proxy->setHost(m_host->host());
}

void RequestLogView::setAliases(const QStringList &aliases)
{
    QStringList sorted = aliases;
    std::sort(sorted.begin(), sorted.end());
    QStringList current;
    for (int i = 1; i < m_model->count(); ++i)
        current.append(m_model->itemData(i).toString());
    if (current == sorted)
        return;
    const QString selected = m_model->currentData().toString();
    const QSignalBlocker block(m_model);
    while (m_model->count() > 1)
        m_model->removeItem(1);
    for (const QString &alias : sorted)
        m_model->addItem(alias, alias);
    const int index = m_model->findData(selected);
    if (index < 0 && !selected.isEmpty()) {
        // Keep filtering by a model that is gone from the catalog: its requests are still here.
        m_model->addItem(selected, selected);
        m_model->setCurrentIndex(m_model->count() - 1);
    } else {
        m_model->setCurrentIndex(index < 0 ? 0 : index);
    }
}

int RequestLogView::shownSourceRow() const
{
    const QItemSelectionModel *selection = m_table->selectionModel();
    const QModelIndex current = selection->currentIndex();
    if (!current.isValid() || !selection->isRowSelected(current.row(), current.parent()))
        return -1;
    return m_proxy->mapToSource(current).row();
}

void RequestLogView::showCurrent()
{
    const int row = shownSourceRow();
    if (row < 0) {
        m_details->clear();
        return;
    }
    const QModelIndex index = m_source->index(row, 0);
    m_details->showRecord(m_source->recordAt(row),
                          index.data(RequestLogModel::LiveRole).toBool()
                              ? std::optional(RequestPhase(index.data(RequestLogModel::PhaseRole).toInt()))
                              : std::nullopt);
}

QString RequestLogView::selectedJournalLines() const
{
    QList<int> rows;
    for (const QModelIndex &index : m_table->selectionModel()->selectedRows())
        rows.append(m_proxy->mapToSource(index).row());
    std::sort(rows.begin(), rows.end());
    QStringList lines;
    for (int row : rows)
        lines.append(JournalFormat::requestLine(m_source->recordAt(row)));
    return lines.join(u'\n');
}

void RequestLogView::updateCount()
{
    const int shown = m_proxy->rowCount();
    const int all = m_source->rowCount();
    m_count->setText(shown == all ? tr("%n request(s)", nullptr, all)
                                  : tr("%1 of %n request(s)", nullptr, all).arg(QLocale().toString(shown)));
}

} // namespace switchyard
