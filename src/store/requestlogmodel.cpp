#include "store/requestlogmodel.h"

#include "journal/journalformat.h"
#include "store/historystore.h"

#include <algorithm>
#include <utility>

namespace switchyard {

using namespace Qt::StringLiterals;

namespace {

double ms(std::chrono::nanoseconds d)
{
    return std::chrono::duration<double, std::milli>(d).count();
}

} // namespace

RequestLogModel::RequestLogModel(QObject *parent)
    : QAbstractTableModel(parent)
{
    m_insertTimer.setSingleShot(true);
    m_insertTimer.setInterval(0);
    connect(&m_insertTimer, &QTimer::timeout, this, &RequestLogModel::insertPending);
}

void RequestLogModel::setCapacity(int rows)
{
    m_capacity = std::max(1, rows);
    trimTo(m_capacity);
}

void RequestLogModel::append(const RequestRecord &record)
{
    m_pending.append(record);
    if (!m_insertTimer.isActive())
        m_insertTimer.start();
}

void RequestLogModel::insertPending()
{
    appendRecords(std::exchange(m_pending, {}));
}

void RequestLogModel::appendRecords(const QList<RequestRecord> &records)
{
    if (records.isEmpty())
        return;
    // Only the newest capacity() of them can stay; make room before inserting.
    const qsizetype take = std::min<qsizetype>(records.size(), m_capacity);
    trimTo(int(m_capacity - take));
    const int first = int(m_rows.size());
    beginInsertRows({}, first, first + int(take) - 1);
    for (qsizetype i = records.size() - take; i < records.size(); ++i)
        m_rows.push_back(records[i]);
    endInsertRows();
}

void RequestLogModel::trimTo(int rows)
{
    const int excess = int(m_rows.size()) - std::max(0, rows);
    if (excess <= 0)
        return;
    beginRemoveRows({}, 0, excess - 1);
    m_rows.erase(m_rows.begin(), m_rows.begin() + excess);
    endRemoveRows();
}

void RequestLogModel::loadFrom(HistoryStore &store, const QDateTime &since)
{
    RequestQuery query;
    query.since = since;
    query.limit = m_capacity;
    QList<RequestRecord> loaded = store.requests(query);   // newest first
    std::reverse(loaded.begin(), loaded.end());
    qint64 lastId = 0;
    for (const RequestRecord &r : std::as_const(loaded))
        lastId = std::max(lastId, r.id);
    // Live appends still waiting may already be among the loaded rows (the query flushed them).
    m_pending.erase(std::remove_if(m_pending.begin(), m_pending.end(),
                                   [lastId](const RequestRecord &r) { return r.id != 0 && r.id <= lastId; }),
                    m_pending.end());
    beginResetModel();
    m_rows.assign(loaded.cbegin(), loaded.cend());
    endResetModel();
}

void RequestLogModel::clear()
{
    m_pending.clear();
    m_insertTimer.stop();
    beginResetModel();
    m_rows.clear();
    endResetModel();
}

RequestRecord RequestLogModel::recordAt(int row) const
{
    if (row < 0 || row >= int(m_rows.size()))
        return {};
    return m_rows[size_t(row)];
}

int RequestLogModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int RequestLogModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

RequestLogModel::Severity RequestLogModel::severity(const RequestRecord &record)
{
    // Status 0: the client went away before an answer; the relay's own errors count as errors.
    if (record.status >= 500 || record.status == 0 || !record.relayError.isEmpty())
        return Severity::Error;
    if (record.status >= 400)
        return Severity::ClientError;
    return Severity::Normal;
}

QVariant RequestLogModel::display(const RequestRecord &r, int column) const
{
    switch (column) {
    case TimeColumn:
        return JournalFormat::timestamp(r.startedAt);
    case MethodColumn:
        return r.method;
    case PathColumn:
        return r.path;
    case AliasColumn:
        return r.model;
    case HostColumn:
        return r.host;
    case StatusColumn:
        return r.status ? QString::number(r.status) : QString();
    case DurationColumn:
        return JournalFormat::requestDuration(r.duration);
    case TtfbColumn:
        return r.timeToFirstByte ? JournalFormat::requestDuration(*r.timeToFirstByte) : QString();
    case TokensPerSecondColumn:
        return r.tokensPerSecond ? QString::number(*r.tokensPerSecond, 'f', 1) : QString();
    case ClientColumn:
        return JournalFormat::clientAddress(r.clientAddress);
    case AppColumn:
        return appName(clientAppFromUserAgent(r.userAgent));
    }
    return {};
}

// The program behind a request, as the window names it (the API and metrics use clientAppName).
QString RequestLogModel::appName(ClientApp app)
{
    switch (app) {
    case ClientApp::ClaudeCode: return tr("Claude Code");
    case ClientApp::Opencode: return tr("opencode");
    case ClientApp::Pi: return tr("pi");
    case ClientApp::Codex: return tr("Codex");
    case ClientApp::Cline: return tr("Cline");
    case ClientApp::QwenCode: return tr("Qwen Code");
    case ClientApp::OpenAiSdkJs: return tr("OpenAI SDK (JavaScript)");
    case ClientApp::OpenAiSdkPython: return tr("OpenAI SDK (Python)");
    case ClientApp::AnthropicSdkJs: return tr("Anthropic SDK (JavaScript)");
    case ClientApp::AnthropicSdkPython: return tr("Anthropic SDK (Python)");
    case ClientApp::Curl: return tr("curl");
    case ClientApp::Browser: return tr("browser");
    case ClientApp::Other: break;
    }
    return tr("other");
}

QVariant RequestLogModel::sortValue(const RequestRecord &r, int column) const
{
    // Missing numbers sort as -1, below every real value.
    switch (column) {
    case TimeColumn:
        return r.startedAt.toMSecsSinceEpoch();
    case StatusColumn:
        return r.status;
    case DurationColumn:
        return ms(r.duration);
    case TtfbColumn:
        return r.timeToFirstByte ? ms(*r.timeToFirstByte) : -1.0;
    case TokensPerSecondColumn:
        return r.tokensPerSecond.value_or(-1.0);
    default:
        return display(r, column);
    }
}

QVariant RequestLogModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const RequestRecord &r = m_rows[size_t(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        return display(r, index.column());
    case Qt::ToolTipRole:
        return JournalFormat::requestLine(r);
    case Qt::TextAlignmentRole:
        switch (index.column()) {
        case StatusColumn:
        case DurationColumn:
        case TtfbColumn:
        case TokensPerSecondColumn:
            return int(Qt::AlignRight | Qt::AlignVCenter);   // an int: what Qt 6.4's delegates read
        default:
            return {};
        }
    case SortRole:
        return sortValue(r, index.column());
    case SeverityRole:
        return int(severity(r));
    case RecordIdRole:
        return r.id;
    default:
        return {};
    }
}

QVariant RequestLogModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case TimeColumn: return tr("Time");
    case MethodColumn: return tr("Method");
    case PathColumn: return tr("Path");
    case AliasColumn: return tr("Alias");
    case HostColumn: return tr("Host");
    case StatusColumn: return tr("Status");
    case DurationColumn: return tr("Duration");
    case TtfbColumn: return tr("First byte");
    case TokensPerSecondColumn: return tr("Tokens/s");
    case ClientColumn: return tr("Client");
    case AppColumn: return tr("App");
    }
    return {};
}

QHash<int, QByteArray> RequestLogModel::roleNames() const
{
    QHash<int, QByteArray> names = QAbstractTableModel::roleNames();
    names.insert(SortRole, "sortValue");
    names.insert(SeverityRole, "severity");
    names.insert(RecordIdRole, "recordId");
    return names;
}

} // namespace switchyard
