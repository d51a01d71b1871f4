#include "store/requestlogmodel.h"

#include "journal/journalformat.h"
#include "store/historystore.h"

#include <QLocale>

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
    m_tickTimer.setInterval(std::chrono::seconds(1));
    connect(&m_tickTimer, &QTimer::timeout, this, &RequestLogModel::tickLive);
}

void RequestLogModel::setCapacity(int rows)
{
    m_capacity = std::max(1, rows);
    trimTo(m_capacity);
}

void RequestLogModel::append(const RequestRecord &record)
{
    if (record.liveId != 0 && m_live.remove(record.liveId)) {
        if (m_live.isEmpty())
            m_tickTimer.stop();
        // Its finished record takes the live row's place (one not inserted yet is among the
        // few pending ones: looked at first).
        for (RequestRecord &pending : m_pending) {
            if (pending.liveId == record.liveId) {
                pending = record;
                return;
            }
        }
        const int row = liveRow(record.liveId);
        if (row >= 0) {
            m_rows[size_t(row)] = record;
            emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
            return;
        }
    }
    m_pending.append(record);
    if (!m_insertTimer.isActive())
        m_insertTimer.start();
}

void RequestLogModel::updateLive(const RequestRecord &record, RequestPhase phase)
{
    if (record.liveId == 0)
        return;
    const bool known = m_live.contains(record.liveId);
    m_live.insert(record.liveId, phase);
    if (!m_tickTimer.isActive())
        m_tickTimer.start();
    if (known) {
        for (RequestRecord &pending : m_pending) {
            if (pending.liveId == record.liveId) {
                pending = record;
                return;
            }
        }
        const int row = liveRow(record.liveId);
        if (row >= 0) {
            m_rows[size_t(row)] = record;
            // What progress changes (the model and host are known before the row is shown; the
            // time, method and path never change): a view sorted by time does not sort again
            // for every token report.
            emit dataChanged(index(row, AliasColumn), index(row, TokensPerSecondColumn));
            return;
        }
    }
    m_pending.append(record);
    if (!m_insertTimer.isActive())
        m_insertTimer.start();
}

bool RequestLogModel::isLive(int row) const
{
    if (row < 0 || row >= int(m_rows.size()))
        return false;
    const quint64 id = m_rows[size_t(row)].liveId;
    return id != 0 && m_live.contains(id);
}

int RequestLogModel::liveRow(quint64 liveId) const
{
    // Live rows are among the newest: look from the end.
    for (int row = int(m_rows.size()) - 1; row >= 0; --row) {
        if (m_rows[size_t(row)].liveId == liveId)
            return row;
    }
    return -1;
}

void RequestLogModel::tickLive()
{
    if (m_live.isEmpty()) {
        m_tickTimer.stop();
        return;
    }
    int first = -1;
    int last = -1;
    for (int row = int(m_rows.size()) - 1; row >= 0; --row) {
        if (isLive(row)) {
            first = row;
            if (last < 0)
                last = row;
        }
    }
    if (first >= 0)
        emit dataChanged(index(first, DurationColumn), index(last, DurationColumn), {Qt::DisplayRole});
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
    // Requests in flight stay, after the loaded ones.
    for (size_t row = 0; row < m_rows.size(); ++row) {
        if (m_rows[row].liveId != 0 && m_live.contains(m_rows[row].liveId))
            loaded.append(m_rows[row]);
    }
    beginResetModel();
    m_rows.assign(loaded.cbegin(), loaded.cend());
    endResetModel();
}

void RequestLogModel::clear()
{
    m_pending.clear();
    m_insertTimer.stop();
    m_live.clear();
    m_tickTimer.stop();
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
    // A client that went away is no failure of the relay's; status 0 without that: no answer;
    // the relay's own errors count as errors.
    if (record.clientLeft())
        return Severity::Aborted;
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
        if (r.clientLeft())
            return tr("aborted");
        return r.status ? QString::number(r.status) : QString();
    case DurationColumn:
        return durationText(r.duration);
    case TtfbColumn:
        // No body, no first byte of it: a dash, not a time.
        return r.timeToFirstByte && r.bytesOut > 0 ? durationText(*r.timeToFirstByte) : tr("—");
    case TokensPerSecondColumn:
        return r.tokensPerSecond ? QLocale().toString(*r.tokensPerSecond, 'f', 1) : QString();   // "60,0" in German
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

QString RequestLogModel::durationText(std::chrono::nanoseconds d)
{
    const double ms = std::chrono::duration<double, std::milli>(d).count();
    const QLocale locale;
    if (ms < 1)
        return tr("%1 µs").arg(qRound64(ms * 1000));   // sub-millisecond, not "0"
    if (ms < 10)
        return tr("%1 ms").arg(locale.toString(ms, 'f', 1));
    if (ms < 999.5)
        return tr("%1 ms").arg(qRound64(ms));
    if (ms < 10000)
        return tr("%1 s").arg(locale.toString(ms / 1000, 'f', 2));
    if (ms < 60000)
        return tr("%1 s").arg(locale.toString(ms / 1000, 'f', 1));
    const qint64 s = qint64(ms / 1000);
    if (s < 3600)
        return tr("%1 min %2 s").arg(s / 60).arg(s % 60, 2, 10, QChar(u'0'));
    return tr("%1 h %2 min").arg(s / 3600).arg((s % 3600) / 60, 2, 10, QChar(u'0'));
}

QString RequestLogModel::waitText(const WaitReason &reason)
{
    switch (reason.kind) {
    case WaitReason::Kind::None: return {};
    case WaitReason::Kind::Switch:
        return reason.from.isEmpty() ? tr("switch to %1").arg(reason.to)
                                     : tr("switch %1→%2").arg(reason.from, reason.to);
    case WaitReason::Kind::ModelLoad: return tr("model loading");
    case WaitReason::Kind::Queue: return tr("queue");
    case WaitReason::Kind::Lease: return tr("lease");
    case WaitReason::Kind::HostCheck: return tr("host check");
    case WaitReason::Kind::Wake: return tr("host wake-up");
    }
    return {};
}

QString RequestLogModel::phaseText(RequestPhase phase, const WaitReason &reason)
{
    switch (phase) {
    case RequestPhase::Arrived: return tr("received");
    case RequestPhase::Waiting:
        return reason.isNone() ? tr("waiting") : tr("waiting: %1").arg(waitText(reason));
    case RequestPhase::Upstream: return tr("sent");
    case RequestPhase::Streaming: return tr("streaming");
    }
    return {};
}

namespace {

QString clockTime(const QDateTime &when)
{
    return when.toString(u"HH:mm:ss"_s);
}

} // namespace

QString RequestLogModel::liveStatusText(RequestPhase phase, const RequestRecord &record)
{
    const QString text = phaseText(phase, record.waitReason);
    if (phase != RequestPhase::Waiting || !record.waitUntil.isValid())
        return text;
    return tr("%1 · at the latest %2").arg(text, clockTime(record.waitUntil));
}

QString RequestLogModel::waitingText(RequestPhase phase, const RequestRecord &record, const QDateTime &now)
{
    if (phase != RequestPhase::Waiting)
        return {};
    const WaitReason &reason = record.waitReason;
    QString what;
    switch (reason.kind) {
    case WaitReason::Kind::None: what = tr("waits"); break;
    case WaitReason::Kind::Switch: what = tr("waits for engine %1").arg(reason.to); break;
    case WaitReason::Kind::ModelLoad: what = tr("waits for its model to load"); break;
    case WaitReason::Kind::Queue: what = tr("waits for its turn on the host"); break;
    case WaitReason::Kind::Lease: what = tr("waits for the host's lease to end"); break;
    case WaitReason::Kind::HostCheck: what = tr("waits for a second look at the host"); break;
    case WaitReason::Kind::Wake: what = tr("waits for the host to wake"); break;
    }
    if (!record.waitUntil.isValid())
        return what;
    const qint64 leftMs = std::max<qint64>(0, now.msecsTo(record.waitUntil));
    const QString in = leftMs < 60000 ? tr("in %1 s").arg((leftMs + 999) / 1000)
                                      : tr("in %1").arg(durationText(std::chrono::milliseconds(leftMs)));
    return tr("%1 · switch at the latest %2 (%3)").arg(what, clockTime(record.waitUntil), in);
}

bool RequestLogModel::isOwnRequest(const RequestRecord &record)
{
    // The window's loads (RelayClient) and the export it runs (its GET /v1/models).
    return record.userAgent.startsWith("switchyard-desktop/"_L1) || record.userAgent.startsWith("switchyard-export/"_L1);
}

QVariant RequestLogModel::liveDisplay(const RequestRecord &r, RequestPhase phase, int column) const
{
    switch (column) {
    case StatusColumn:
        return liveStatusText(phase, r);
    case DurationColumn:
        return durationText(std::chrono::steady_clock::now() - r.startedSteady);
    case TtfbColumn:
        return tr("—");
    case TokensPerSecondColumn:
        return r.streamedTokens ? tr("%1 tokens").arg(*r.streamedTokens) : QString();
    default:
        return display(r, column);
    }
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
    const auto live = r.liveId ? m_live.constFind(r.liveId) : m_live.constEnd();
    const bool inFlight = live != m_live.constEnd();
    switch (role) {
    case Qt::DisplayRole:
        return inFlight ? liveDisplay(r, *live, index.column()) : display(r, index.column());
    case Qt::ToolTipRole:
        if (inFlight) {
            const QString waiting = waitingText(*live, r, QDateTime::currentDateTime());
            return waiting.isEmpty() ? phaseText(*live, r.waitReason) : waiting;
        }
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
        return int(inFlight ? Severity::InProgress : severity(r));
    case RecordIdRole:
        return r.id;
    case LiveRole:
        return inFlight;
    case PhaseRole:
        return inFlight ? QVariant(int(*live)) : QVariant();
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
    names.insert(LiveRole, "live");
    names.insert(PhaseRole, "phase");
    return names;
}

} // namespace switchyard
